/**
 * The safety procedures: blocks and mutes, and the lists of them. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (safety.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, protectedProcedure } from '../../trpc.js';
import {
  blockResult,
  muteResult,
  safetyListInput,
  safetyListPage,
  safetyTargetInput,
} from './safety.schema.js';
import * as safety from './safety.service.js';

export const safetyRouter = createTRPCRouter({
  /** POST /api/users/:id/block → {blocked: true}. */
  block: limitedProcedure('react')
    .input(safetyTargetInput)
    .output(output(blockResult))
    .mutation(({ ctx, input }) => safety.block(ctx, input.userId)),
  /** DELETE /api/users/:id/block → {blocked: false}. */
  unblock: limitedProcedure('react')
    .input(safetyTargetInput)
    .output(output(blockResult))
    .mutation(({ ctx, input }) => safety.unblock(ctx, input.userId)),
  /** POST /api/users/:id/mute → {muted: true}. */
  mute: limitedProcedure('react')
    .input(safetyTargetInput)
    .output(output(muteResult))
    .mutation(({ ctx, input }) => safety.mute(ctx, input.userId)),
  /** DELETE /api/users/:id/mute → {muted: false}. */
  unmute: limitedProcedure('react')
    .input(safetyTargetInput)
    .output(output(muteResult))
    .mutation(({ ctx, input }) => safety.unmute(ctx, input.userId)),
  /** The members the caller blocked, newest first (Settings). */
  blocked: protectedProcedure
    .input(safetyListInput)
    .output(output(safetyListPage))
    .query(({ ctx, input }) => safety.listBlocked(ctx, input)),
  /** The members the caller muted, newest first (Settings). */
  muted: protectedProcedure
    .input(safetyListInput)
    .output(output(safetyListPage))
    .query(({ ctx, input }) => safety.listMuted(ctx, input)),
});
