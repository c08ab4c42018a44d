/**
 * Sends one push message to one browser: web-push encrypts the payload (RFC 8291) and signs the
 * VAPID header, and the request itself goes out here, through the SSRF guard (net/ssrf.guard.ts):
 * the endpoint's host is resolved and checked, the connection is pinned to the checked address,
 * no redirect is followed, and the answer is bounded in time and size.
 *
 * The outcome says what the send job does next: `sent`; `gone` (404/410: the subscription is
 * deleted); `refused` (the guard refuses the endpoint, for its address or a name that does not
 * resolve: the subscription is deleted too, as no send to it could go); `rejected` (another 4xx:
 * retrying cannot help); a thrown error (network, 429, 5xx) is retried by the job queue.
 */
import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import {
  type GuardOptions,
  pinnedLookup,
  RefusedEndpointError,
  resolvePublicTarget,
} from '../../net/ssrf.guard.js';
import type { PushSettings } from './push.keys.js';
import type { PushPayload } from './push.schema.js';

export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'refused'; reason: string }
  | { kind: 'rejected'; reason: string };

export interface BrowserSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How long a push service may keep a message for an offline browser. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

export const PUSH_TIMEOUT_MS = 10_000;

/** A failure worth retrying (the push service is down, busy or unreachable). */
export class PushRetryError extends Error {
  override name = 'PushRetryError';
}

export async function sendPush(
  subscription: BrowserSubscription,
  payload: PushPayload,
  settings: PushSettings,
  options: { timeoutMs?: number; resolve?: GuardOptions['resolve'] } = {},
): Promise<PushOutcome> {
  let target: Awaited<ReturnType<typeof resolvePublicTarget>>;
  try {
    target = await resolvePublicTarget(subscription.endpoint, {
      allowPrivate: settings.allowPrivateEndpoints,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
  } catch (error) {
    if (error instanceof RefusedEndpointError) return { kind: 'refused', reason: error.message };
    throw error;
  }
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: {
        subject: settings.subject,
        publicKey: settings.publicKey,
        privateKey: settings.privateKey,
      },
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
    },
  );
  const status = await post(target.url, details.headers, details.body, {
    lookup: pinnedLookup(target),
    timeoutMs: options.timeoutMs ?? PUSH_TIMEOUT_MS,
  });
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 404 || status === 410) return { kind: 'gone', status };
  if (status === 429 || status >= 500) throw new PushRetryError(`push service answered ${status}`);
  return { kind: 'rejected', reason: `push service answered ${status}` };
}

/** One POST, its answer's status; the body is read (up to 16 KB) and dropped. */
function post(
  url: URL,
  headers: Record<string, string | number>,
  body: Buffer | null,
  options: { lookup: ReturnType<typeof pinnedLookup>; timeoutMs: number },
): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': body?.length ?? 0 },
        lookup: options.lookup,
        timeout: options.timeoutMs,
        // A fresh connection each time: a kept one could be to an address checked for another host.
        agent: false,
      },
      (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > 16 * 1024) res.destroy();
        });
        res.on('close', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new PushRetryError('push service timed out')));
    req.on('error', (error) =>
      reject(error instanceof PushRetryError ? error : new PushRetryError(error.message)),
    );
    req.end(body ?? undefined);
  });
}
