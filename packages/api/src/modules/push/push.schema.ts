/**
 * Web push inputs and answers: the VAPID public key, a browser's subscription as its
 * `PushSubscription.toJSON()` gives it, and the kinds a member wants by push.
 */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { LANGUAGES } from '../../languages.js';
import { text } from '../../text.js';

/** A base64url string of `bytes` bytes (padded or not); both rules are patterns the OpenAPI document carries. */
function base64url(label: string, bytes: number) {
  const length = Math.ceil((bytes * 4) / 3);
  return text(label)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${label} must be base64url`)
    .regex(new RegExp(`^[A-Za-z0-9_-]{${length}}=*$`), `${label} must hold ${bytes} bytes`);
}

export const PUSH_ENDPOINT_MAX = 2048;

export const pushEndpoint = text('Endpoint')
  .min(1, ERROR_REASONS.ENDPOINT_REQUIRED)
  .max(PUSH_ENDPOINT_MAX, ERROR_REASONS.ENDPOINT_TOO_LONG);

/**
 * A subscription's endpoint: an absolute http(s) URL without credentials (as a pattern, for the
 * OpenAPI document). Which schemes and addresses are taken is the server's to judge
 * (net/ssrf.guard.ts: https on public addresses only, unless PUSH_ALLOW_PRIVATE_ENDPOINTS).
 */
const PORT = '(?:[0-5]?[0-9]{1,4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
const subscriptionEndpoint = pushEndpoint.regex(
  new RegExp(`^https?://[A-Za-z0-9.-]+(?::${PORT})?(?:[/?#]\\S*)?$`),
  ERROR_REASONS.ENDPOINT_NOT_HTTP,
);

export const subscribePushInput = z.object({
  endpoint: subscriptionEndpoint,
  /** What toJSON() carries; not used (a push service that dropped it answers 404/410). */
  expirationTime: z.number().nullish(),
  keys: z.strictObject({
    /** The browser's P-256 public key, uncompressed: 65 bytes. */
    p256dh: base64url('p256dh', 65),
    /** The authentication secret: 16 bytes. */
    auth: base64url('auth', 16),
  }),
});
export type SubscribePushInput = z.infer<typeof subscribePushInput>;

export const unsubscribePushInput = z.strictObject({ endpoint: pushEndpoint });
export type UnsubscribePushInput = z.infer<typeof unsubscribePushInput>;

export const pushKeyResult = z.strictObject({
  /** The VAPID public key, base64url: `applicationServerKey` of `pushManager.subscribe`. */
  publicKey: z.string(),
});
export type PushKeyResult = z.infer<typeof pushKeyResult>;

export const pushOkResult = z.strictObject({ ok: z.literal(true) });
export type PushOkResult = z.infer<typeof pushOkResult>;

/** The kinds a member may turn push on or off for. */
export const PUSH_KINDS = ['likes', 'comments', 'follows', 'mentions', 'messages'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export const pushPreferencesSchema = z.strictObject({
  likes: z.boolean(),
  comments: z.boolean(),
  follows: z.boolean(),
  mentions: z.boolean(),
  messages: z.boolean(),
});
export type PushPreferences = z.infer<typeof pushPreferencesSchema>;

export const updatePushPreferencesInput = pushPreferencesSchema
  .partial()
  .refine((v) => Object.keys(v).length > 0, ERROR_REASONS.NOTHING_TO_CHANGE)
  // The refinement as JSON Schema, for the OpenAPI document (last: meta belongs to one instance).
  .meta({ minProperties: 1 });
export type UpdatePushPreferencesInput = z.infer<typeof updatePushPreferencesInput>;

/** The kinds of push: a notification's type, or a direct message. */
export const PUSH_PAYLOAD_KINDS = ['like', 'comment', 'follow', 'mention', 'message'] as const;
export type PushPayloadKind = (typeof PUSH_PAYLOAD_KINDS)[number];

/** The longest name a push carries, in characters (a display name is at most 50: this bounds an old one). */
export const PUSH_NAME_MAX = 64;

/**
 * What a push carries, and no more (issue #50: no sentence; the service worker words it in `lang`,
 * apps/web/src/pwa/push-texts.ts): the kind, who it is from (username, display name), the start of
 * what was said to the recipient (a comment, a mention; null otherwise, and always for a direct
 * message, whose words never travel), the recipient's language, and where a click goes.
 */
export const pushPayloadSchema = z.strictObject({
  kind: z.enum(PUSH_PAYLOAD_KINDS),
  who: z.string(),
  name: z.string().max(PUSH_NAME_MAX),
  snippet: z.string().nullable(),
  lang: z.enum(LANGUAGES),
  url: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
