import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import * as notifications from './notification.service.js';

export const notificationsRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => notifications.listNotifications(ctx)),
  unreadCount: protectedProcedure.query(({ ctx }) => notifications.countUnread(ctx)),
  markAllRead: protectedProcedure.mutation(({ ctx }) => notifications.markAllRead(ctx)),
});
