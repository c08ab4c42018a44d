import { tracked } from '@trpc/server';
import { liveInput } from '../../events/live.schema.js';
import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import * as notifications from './notification.service.js';

export const notificationsRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => notifications.listNotifications(ctx)),
  unreadCount: protectedProcedure.query(({ ctx }) => notifications.countUnread(ctx)),
  markAllRead: protectedProcedure.mutation(({ ctx }) => notifications.markAllRead(ctx)),
  /** The bell, live (WebSocket): the unread count whenever it changes; ids let a client catch up. */
  onChange: protectedProcedure.input(liveInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id, state } of notifications.liveNotifications(ctx, input.lastEventId, signal)) {
      yield tracked(id, state);
    }
  }),
});
