/**
 * The follows procedures: following and unfollowing a member, and a member's Followers and
 * Following lists. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (follow.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { tracked } from '@trpc/server';
import { liveInput } from '../../events/live.schema.js';
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, protectedProcedure, publicProcedure } from '../../trpc.js';
import { liveFollows } from './follow.live.js';
import { followInput, followListInput, followListPage, followResult } from './follow.schema.js';
import * as follows from './follow.service.js';

export const followsRouter = createTRPCRouter({
  /** POST /api/users/:id/follow → {following: true, followersCount}. */
  follow: limitedProcedure('react')
    .input(followInput)
    .output(output(followResult))
    .mutation(({ ctx, input }) => follows.follow(ctx, input.userId)),
  /** DELETE /api/users/:id/follow → {following: false, followersCount}. */
  unfollow: limitedProcedure('react')
    .input(followInput)
    .output(output(followResult))
    .mutation(({ ctx, input }) => follows.unfollow(ctx, input.userId)),
  /**
   * The caller's follows, live (WebSocket): an event whenever they follow or unfollow someone, in
   * any tab on any instance; ids (who they follow) let a client catch up.
   */
  onChange: protectedProcedure.input(liveInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id } of liveFollows(ctx, input.lastEventId, signal))
      yield tracked(id, { changed: true });
  }),
  /** GET /api/users/:id/followers → [members] (X-Next-Cursor): who follows them, newest first. */
  followers: publicProcedure
    .input(followListInput)
    .output(output(followListPage))
    .query(({ ctx, input }) => follows.followers(ctx, input)),
  /** GET /api/users/:id/following → [members] (X-Next-Cursor): whom they follow, newest first. */
  following: publicProcedure
    .input(followListInput)
    .output(output(followListPage))
    .query(({ ctx, input }) => follows.following(ctx, input)),
});
