/**
 * Web push, the member's side: the server's public key, a browser's subscription saved or
 * removed, and which kinds reach them by push. The endpoint is checked here as at each send
 * (https, no credentials, its host resolved to public addresses only), so one that could never be
 * sent to is refused at once; the check at each send (push.sender.ts) is the one that counts, as
 * a name may resolve elsewhere later. An endpoint belongs to the member who registered it until
 * they remove it or the push service answers 404/410: another member posting it gets a 409.
 */
import { randomUUID } from 'node:crypto';
import { type AuthedContext, type Context, publishEvent } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, conflict, serviceUnavailable } from '../../errors.js';
import { RefusedEndpointError, resolvePublicTarget } from '../../net/ssrf.guard.js';
import {
  deleteSubscription,
  findPreferences,
  hasSubscription,
  savePreferences,
  upsertSubscription,
} from './push.repository.js';
import type {
  PushKeyResult,
  PushOkResult,
  PushPreferences,
  SubscribePushInput,
  UnsubscribePushInput,
  UpdatePushPreferencesInput,
} from './push.schema.js';

export const PUSH_NOT_SET_UP = ERROR_REASONS.PUSH_NOT_SET_UP;
export const PUSH_ENDPOINT_TAKEN = ERROR_REASONS.PUSH_ENDPOINT_TAKEN;

export function getPushKey(ctx: Context): PushKeyResult {
  if (!ctx.push) throw serviceUnavailable(PUSH_NOT_SET_UP);
  return { publicKey: ctx.push.publicKey };
}

export async function subscribePush(ctx: AuthedContext, input: SubscribePushInput): Promise<PushOkResult> {
  if (!ctx.push) throw serviceUnavailable(PUSH_NOT_SET_UP);
  try {
    await resolvePublicTarget(input.endpoint, { allowPrivate: ctx.push.allowPrivateEndpoints });
  } catch (error) {
    if (error instanceof RefusedEndpointError) throw badRequest(`Endpoint refused: ${error.message}`);
    throw error;
  }
  const saved = await upsertSubscription(ctx.em, {
    id: randomUUID(),
    userId: ctx.session.user.id,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    at: ctx.now(),
  });
  if (!saved) throw conflict(PUSH_ENDPOINT_TAKEN);
  publishEvent(ctx, 'pushSubscriptions', { userId: ctx.session.user.id });
  return { ok: true };
}

/** Idempotent: removing a subscription that is not (or no longer) the caller's is a no-op. */
export async function unsubscribePush(
  ctx: AuthedContext,
  input: UnsubscribePushInput,
): Promise<PushOkResult> {
  if ((await deleteSubscription(ctx.em, ctx.session.user.id, input.endpoint)) > 0) {
    publishEvent(ctx, 'pushSubscriptions', { userId: ctx.session.user.id });
  }
  return { ok: true };
}

/** Whether this browser's endpoint is subscribed for the caller (it may have been dropped by a 410). */
export async function pushStatus(
  ctx: AuthedContext,
  input: UnsubscribePushInput,
): Promise<{ subscribed: boolean }> {
  return { subscribed: await hasSubscription(ctx.em, ctx.session.user.id, input.endpoint) };
}

export function getPushPreferences(ctx: AuthedContext): Promise<PushPreferences> {
  return findPreferences(ctx.em, ctx.session.user.id);
}

export function updatePushPreferences(
  ctx: AuthedContext,
  input: UpdatePushPreferencesInput,
): Promise<PushPreferences> {
  return savePreferences(ctx.em, ctx.session.user.id, input);
}
