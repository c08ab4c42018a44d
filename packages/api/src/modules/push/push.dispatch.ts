/**
 * From a bus event to pushes. The instance that published a `notifications` or `messages` event
 * (and only it: `event.local`) queues a fan-out job; the fan-out claims what is due (each
 * notification or message once, across every instance: push.repository.ts) and queues one send
 * job per browser of the recipient; the send job posts it (push.sender.ts), retried by the queue,
 * and deletes the subscription on a 404 or 410, or when the guard refuses its endpoint (one
 * warning line: a member's endpoint, not a fault of the server's). Without a job runner (tests,
 * scripts) the same steps run in this process, once each.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../../events/event-bus.js';
import { JOBS } from '../../jobs/jobs.names.js';
import type { JobQueue } from '../../jobs/jobs.queue.js';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../languages.js';
import { snippetOf } from '../notifications/notification.service.js';
import type { PushSettings } from './push.keys.js';
import { canPush } from './push.reach.js';
import {
  type ClaimedMessage,
  type ClaimedNotification,
  claimMessagePush,
  claimNotificationPushes,
  deleteSubscriptionById,
  findSubscription,
  findSubscriptionIds,
  hasAnySubscription,
} from './push.repository.js';
import { PUSH_NAME_MAX, PUSH_PAYLOAD_KINDS, type PushPayload, type PushPayloadKind } from './push.schema.js';
import { type PushOutcome, sendPush } from './push.sender.js';

export type PushFanOutJob = { recipientId: string } | { messageId: string; receiverId: string };

export interface PushSendJob {
  subscriptionId: string;
  payload: PushPayload;
}

export interface PushDeps {
  fork: () => EntityManager;
  settings: PushSettings;
  /** The job queue; null: run each step in this process. */
  queue: JobQueue | null;
  logError: (message: string, error: unknown) => void;
  logWarn: (fields: Record<string, unknown>, message: string) => void;
  /** Tests: what each send ended as. */
  onOutcome?: (job: PushSendJob, outcome: PushOutcome) => void;
}

/** Bidirectional controls (marks, embeddings, overrides, isolates): a name must not reorder the line around it. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A name as a push shows it: on one line, without control or bidirectional characters, at most
 * PUSH_NAME_MAX characters (never half an emoji), `fallback` (the username) when nothing is left.
 */
export function pushName(name: string, fallback: string): string {
  const flat = name
    .replace(/\p{Cc}/gu, ' ')
    .replace(BIDI_CONTROLS, '')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(flat);
  if (chars.length === 0) return fallback;
  return chars.length <= PUSH_NAME_MAX
    ? flat
    : `${chars
        .slice(0, PUSH_NAME_MAX - 1)
        .join('')
        .trimEnd()}…`;
}

function languageOf(value: string): Language {
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

/** The kind a notification is pushed as; null for a kind that is never pushed. */
function pushKind(type: string): PushPayloadKind | null {
  return (PUSH_PAYLOAD_KINDS as readonly string[]).includes(type) && type !== 'message'
    ? (type as PushPayloadKind)
    : null;
}

/** A notification's push: what a click opens is the post's own page, or the follower's profile. */
export function notificationPayload(n: ClaimedNotification): PushPayload | null {
  const kind = pushKind(n.type);
  if (!kind) return null;
  const url =
    kind === 'follow' || !n.post_id
      ? `/profile/${encodeURIComponent(n.username)}`
      : `/posts/${encodeURIComponent(n.post_id)}`;
  return {
    kind,
    who: n.username,
    name: pushName(n.display_name, n.username),
    snippet: kind === 'comment' || kind === 'mention' ? snippetOf(n.snippet) : null,
    lang: languageOf(n.language),
    url,
  };
}

/** A direct message's push: who sent it, never what it says; a click opens the conversation. */
export function messagePayload(m: ClaimedMessage): PushPayload {
  return {
    kind: 'message',
    who: m.username,
    name: pushName(m.display_name, m.username),
    snippet: null,
    lang: languageOf(m.language),
    url: `/chat?user=${encodeURIComponent(m.sender_id)}`,
  };
}

/**
 * Queues the fan-out of a local event, or runs it here without a queue; nothing for a recipient
 * without a browser subscribed (push.reach.ts). Returns the stop function.
 */
export function followBusForPush(
  bus: EventBus,
  deps: PushDeps & {
    /** Context.cacheScope: where whether a member has a browser to push to is kept (push.reach.ts) */
    cacheScope: object;
  },
): () => void {
  const start = async (job: PushFanOutJob): Promise<void> => {
    const recipientId = 'recipientId' in job ? job.recipientId : job.receiverId;
    if (!(await canPush(deps.cacheScope, recipientId, () => hasAnySubscription(deps.fork(), recipientId))))
      return;
    if (deps.queue) await deps.queue.send(JOBS.pushFanOut, job);
    else await fanOut(deps, job);
  };
  const begin = (job: PushFanOutJob) => {
    start(job).catch((error: unknown) => deps.logError('push fan-out not queued', error));
  };
  const stops = [
    bus.on('notifications', (event) => {
      if (event.local) begin({ recipientId: event.payload.recipientId });
    }),
    bus.on('messages', (event) => {
      const p = event.payload;
      if (event.local && p.kind === 'message') begin({ messageId: p.messageId, receiverId: p.userId });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** Claims what is due for the job's recipient and queues a send per browser. */
export async function fanOut(deps: PushDeps, job: PushFanOutJob): Promise<number> {
  const sends: PushSendJob[] = [];
  await deps.fork().transactional(async (em) => {
    let recipientId: string;
    let payloads: PushPayload[];
    if ('recipientId' in job) {
      recipientId = job.recipientId;
      payloads = (await claimNotificationPushes(em, recipientId))
        .map(notificationPayload)
        .filter((p): p is PushPayload => p !== null);
    } else {
      recipientId = job.receiverId;
      const message = await claimMessagePush(em, job.messageId, job.receiverId);
      payloads = message ? [messagePayload(message)] : [];
    }
    if (payloads.length === 0) return;
    const subscriptions = await findSubscriptionIds(em, recipientId);
    for (const payload of payloads) {
      for (const { id } of subscriptions) sends.push({ subscriptionId: id, payload });
    }
    // Queued before the claim commits: if queueing fails, the claim rolls back and the fan-out is retried.
    if (deps.queue) for (const send of sends) await deps.queue.send(JOBS.pushSend, send);
  });
  if (!deps.queue) {
    for (const send of sends) {
      await deliver(deps, send).catch((error: unknown) => deps.logError('push not sent', error));
    }
  }
  return sends.length;
}

/** Sends one push; throws (so the queue retries) when the push service may take it later. */
export async function deliver(deps: PushDeps, job: PushSendJob): Promise<PushOutcome | null> {
  const em = deps.fork();
  const subscription = await findSubscription(em, job.subscriptionId);
  if (!subscription) return null;
  const outcome = await sendPush(subscription, job.payload, deps.settings);
  deps.onOutcome?.(job, outcome);
  if (outcome.kind === 'gone' || outcome.kind === 'refused')
    await deleteSubscriptionById(em, subscription.id);
  if (outcome.kind === 'refused') {
    deps.logWarn(
      { component: 'push', subscriptionId: subscription.id, reason: outcome.reason },
      'push endpoint refused; subscription dropped',
    );
  }
  if (outcome.kind === 'rejected') deps.logError('push refused', new Error(outcome.reason));
  return outcome;
}
