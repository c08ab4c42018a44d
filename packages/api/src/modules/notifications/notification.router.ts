/**
 * The notifications procedures: the bell's list, the notifications page, the unread count, mark
 * one or all read, and the live stream. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (notification.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { tracked } from '@trpc/server';
import { liveInput } from '../../events/live.schema.js';
import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import {
  groupActorsInput,
  groupActorsPage,
  markAllReadResult,
  notificationIdInput,
  notificationPage,
  notificationPageInput,
  notificationReadResult,
  notificationSchema,
  unreadCountResult,
} from './notification.schema.js';
import * as notifications from './notification.service.js';

export const notificationsRouter = createTRPCRouter({
  /** GET /api/notifications: the newest, with their actors. */
  list: protectedProcedure
    .output(output(notificationSchema.array()))
    .query(({ ctx }) => notifications.listNotifications(ctx)),
  /** GET /api/notifications/page: the notifications page, newest first, all or mentions, paged. */
  page: protectedProcedure
    .input(notificationPageInput)
    .output(output(notificationPage))
    .query(({ ctx, input }) => notifications.pageNotifications(ctx, input)),
  /** GET /api/notifications/unread-count: the bell's badge. */
  unreadCount: protectedProcedure
    .output(output(unreadCountResult))
    .query(({ ctx }) => notifications.countUnread(ctx)),
  /** POST /api/notifications/mark-all-read. */
  markAllRead: protectedProcedure
    .output(output(markAllReadResult))
    .mutation(({ ctx }) => notifications.markAllRead(ctx)),
  /** GET /api/notifications/:id/actors: everyone in the item's group, newest first, paged. */
  groupActors: protectedProcedure
    .input(groupActorsInput)
    .output(output(groupActorsPage))
    .query(({ ctx, input }) => notifications.listGroupActors(ctx, input)),
  /** POST /api/notifications/:id/read: one notification (with its whole group) was opened. */
  markRead: protectedProcedure
    .input(notificationIdInput)
    .output(output(notificationReadResult))
    .mutation(({ ctx, input }) => notifications.markRead(ctx, input)),
  /** The bell, live (WebSocket): the unread count whenever it changes; ids let a client catch up. */
  onChange: protectedProcedure.input(liveInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id, state } of notifications.liveNotifications(ctx, input.lastEventId, signal)) {
      yield tracked(id, state);
    }
  }),
});
