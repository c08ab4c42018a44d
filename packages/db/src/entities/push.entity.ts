import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * Web push: a browser's subscription (the push service's endpoint and the keys that encrypt for
 * it), a member's choice of which kinds reach them by push, and the notifications and messages
 * already handed to the send queue (so two instances, or a job run twice, push each only once).
 */
export const PushSubscription = defineEntity({
  name: 'PushSubscription',
  tableName: 'push_subscriptions',
  indexes: [{ name: 'push_subscriptions_user_index', properties: ['user', 'createdAt'] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    endpoint: p.text().unique(),
    p256dh: p.string().length(100),
    auth: p.string().length(50),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IPushSubscription = InferEntity<typeof PushSubscription>;

/** Which kinds a member wants by push; no row means every kind. */
export const PushPreference = defineEntity({
  name: 'PushPreference',
  tableName: 'push_preferences',
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    likes: p.boolean().default(true),
    comments: p.boolean().default(true),
    follows: p.boolean().default(true),
    mentions: p.boolean().default(true),
    messages: p.boolean().default(true),
  },
});
export type IPushPreference = InferEntity<typeof PushPreference>;

/** A notification's or a direct message's id once its push was queued; swept after a day. */
export const PushDelivery = defineEntity({
  name: 'PushDelivery',
  tableName: 'push_deliveries',
  indexes: [{ name: 'push_deliveries_created_index', properties: ['createdAt'] }],
  properties: {
    sourceId: p.uuid().primary(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IPushDelivery = InferEntity<typeof PushDelivery>;
