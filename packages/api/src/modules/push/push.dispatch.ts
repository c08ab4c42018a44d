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
import { NOTIFICATION_MESSAGES } from '../notifications/notification.service.js';
import type { PushSettings } from './push.keys.js';
import { canPush } from './push.reach.js';
import {
  type ClaimedNotification,
  claimMessagePush,
  claimNotificationPushes,
  deleteSubscriptionById,
  findSubscription,
  findSubscriptionIds,
  hasAnySubscription,
} from './push.repository.js';
import type { PushPayload } from './push.schema.js';
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

/** The text after the name, by notification type; mentions are named here so they push once merged. */
function notificationText(type: string): string {
  return (
    (NOTIFICATION_MESSAGES as Record<string, string>)[type] ?? (type === 'mention' ? 'mentioned you' : type)
  );
}

/** What a click on the push opens: the post's own page, or the follower's profile. */
export function notificationPayload(n: ClaimedNotification): PushPayload {
  const url =
    n.type === 'follow' || !n.post_id
      ? `/profile/${encodeURIComponent(n.username)}`
      : `/posts/${encodeURIComponent(n.post_id)}`;
  return { text: `${n.username} ${notificationText(n.type)}`, who: n.username, url };
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
      payloads = (await claimNotificationPushes(em, recipientId)).map(notificationPayload);
    } else {
      recipientId = job.receiverId;
      const message = await claimMessagePush(em, job.messageId, job.receiverId);
      payloads = message
        ? [
            {
              text: `${message.username} sent you a message`,
              who: message.username,
              url: `/chat?user=${message.sender_id}`,
            },
          ]
        : [];
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
