/**
 * The push procedures: the server's VAPID key (public), a browser's subscription saved, checked
 * or removed, and the per-kind choices of Settings → Notifications. REST rows: GET /api/push/key,
 * POST and DELETE /api/push/subscriptions, GET and PATCH /api/push/preferences.
 */
import { z } from 'zod';
import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure, sharedProcedure } from '../../trpc.js';
import {
  pushKeyResult,
  pushOkResult,
  pushPreferencesSchema,
  subscribePushInput,
  unsubscribePushInput,
  updatePushPreferencesInput,
} from './push.schema.js';
import * as push from './push.service.js';

export const pushRouter = createTRPCRouter({
  // The server's key, the same for everyone; a short time, as a restart may bring a new one.
  key: sharedProcedure('public, max-age=300')
    .output(output(pushKeyResult))
    .query(({ ctx }) => push.getPushKey(ctx)),
  subscribe: protectedProcedure
    .input(subscribePushInput)
    .output(output(pushOkResult))
    .mutation(({ ctx, input }) => push.subscribePush(ctx, input)),
  unsubscribe: protectedProcedure
    .input(unsubscribePushInput)
    .output(output(pushOkResult))
    .mutation(({ ctx, input }) => push.unsubscribePush(ctx, input)),
  /** Whether this browser's endpoint is still subscribed (a 410 from its push service drops it). */
  status: protectedProcedure
    .input(unsubscribePushInput)
    .output(output(z.strictObject({ subscribed: z.boolean() })))
    .query(({ ctx, input }) => push.pushStatus(ctx, input)),
  preferences: protectedProcedure
    .output(output(pushPreferencesSchema))
    .query(({ ctx }) => push.getPushPreferences(ctx)),
  updatePreferences: protectedProcedure
    .input(updatePushPreferencesInput)
    .output(output(pushPreferencesSchema))
    .mutation(({ ctx, input }) => push.updatePushPreferences(ctx, input)),
});
