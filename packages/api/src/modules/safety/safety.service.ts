/**
 * Block and mute. A block is mutual in effect: neither member sees the other's posts, comments or
 * profile details, the blocked member cannot follow, message, like or comment on the blocker's
 * posts, and existing follows between them end (with their notifications) in the same
 * transaction as the block. A mute only changes the muter's reads: the muted member's posts leave
 * the muter's feeds and their notifications stop; nothing tells the muted member. Both are
 * idempotent, keyed by the (actor, target) primary key. The read and write paths apply them
 * through safety.sql.ts.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, publishEvent, sentWithWrite } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, forbidden, notFound, requireUuid } from '../../errors.js';
import { keyset, type Page } from '../../paging.js';
import { USER_NOT_FOUND } from '../users/user.repository.js';
import { cachedBlocksEitherWay } from './safety.cache.js';
import {
  deleteBlock,
  deleteFollowsBetween,
  deleteMute,
  deleteNotificationsBetween,
  entryKeyColumns,
  findBlockedEitherWay,
  findEntries,
  insertBlock,
  insertMute,
  isBlockedBetween,
  type SafetyTable,
  userExists,
} from './safety.repository.js';
import type {
  BlockResult,
  MuteResult,
  Relationship,
  SafetyListEntry,
  SafetyListInput,
} from './safety.schema.js';

/** Where the viewer stands with another member (safety.schema.ts); the users module reads it from here. */
export type { Relationship };

export const CANNOT_BLOCK_SELF = ERROR_REASONS.CANNOT_BLOCK_SELF;
export const CANNOT_MUTE_SELF = ERROR_REASONS.CANNOT_MUTE_SELF;
/** What a blocked pair hears when one tries to follow the other. */
export const CANNOT_FOLLOW_BLOCKED = ERROR_REASONS.CANNOT_FOLLOW_BLOCKED;

export const NO_RELATIONSHIP: Relationship = { blocking: false, blockedBy: false, muting: false };

/** 403 when a block stands between the two; the follow service asks before it writes. */
export async function requireNotBlocked(
  em: EntityManager,
  a: string,
  b: string,
  message: string,
): Promise<void> {
  if (await isBlockedBetween(em, a, b)) throw forbidden(message);
}

/**
 * The members blocked either way with `memberId`, from memory (safety.cache.ts): for the live
 * streams that ask it of every listener for every event. Read on the primary, where blocks are
 * written.
 */
export function blockedEitherWay(ctx: Context, memberId: string): Promise<ReadonlySet<string>> {
  return cachedBlocksEitherWay(ctx.cacheScope, memberId, () => findBlockedEitherWay(ctx.fork(), memberId));
}

async function requireUser(em: EntityManager, userId: string): Promise<void> {
  if (!(await userExists(em, userId))) throw notFound(USER_NOT_FOUND);
}

function targetOf(ctx: AuthedContext, rawUserId: string, selfMessage: string): string {
  const targetId = requireUuid(rawUserId, USER_NOT_FOUND);
  if (targetId === ctx.session.user.id) throw badRequest(selfMessage);
  return targetId;
}

/** Idempotent. Ends follows both ways and removes the notifications between the two. */
export async function block(ctx: AuthedContext, rawUserId: string): Promise<BlockResult> {
  const blockedId = targetOf(ctx, rawUserId, CANNOT_BLOCK_SELF);
  const blockerId = ctx.session.user.id;
  const relation = { userId: blockerId, otherId: blockedId, kind: 'block' } as const;
  await ctx.em.transactional(async (em) => {
    if (!(await insertBlock(em, blockerId, blockedId, ctx.now()))) {
      await requireUser(em, blockedId);
    } else {
      await deleteFollowsBetween(em, blockerId, blockedId);
      await deleteNotificationsBetween(em, blockerId, blockedId);
    }
    // Sent with the block, so every instance hears it before any later write of either member
    // (posts.onChange asks each listener's kept blocks whether a change's author is hidden).
    await ctx.bus.publish('relations', relation, em);
  });
  sentWithWrite(ctx, 'relations', relation);
  // Both bells may have lost a notification; the block itself is not announced.
  publishEvent(ctx, 'notifications', { recipientId: blockerId });
  publishEvent(ctx, 'notifications', { recipientId: blockedId });
  return { blocked: true };
}

/** Idempotent. Follows that the block ended stay ended. */
export async function unblock(ctx: AuthedContext, rawUserId: string): Promise<BlockResult> {
  const blockedId = requireUuid(rawUserId, USER_NOT_FOUND);
  const relation = { userId: ctx.session.user.id, otherId: blockedId, kind: 'unblock' } as const;
  // Sent with the deletion, as a block is.
  const unblocked = await ctx.em.transactional(async (em) => {
    if (!(await deleteBlock(em, relation.userId, blockedId))) return false;
    await ctx.bus.publish('relations', relation, em);
    return true;
  });
  if (unblocked) sentWithWrite(ctx, 'relations', relation);
  else await requireUser(ctx.em, blockedId);
  return { blocked: false };
}

/** Idempotent and silent: the muted member is not told, and nothing of theirs changes. */
export async function mute(ctx: AuthedContext, rawUserId: string): Promise<MuteResult> {
  const mutedId = targetOf(ctx, rawUserId, CANNOT_MUTE_SELF);
  if (!(await insertMute(ctx.em, ctx.session.user.id, mutedId, ctx.now())))
    await requireUser(ctx.em, mutedId);
  else {
    // The muter's bell hides the muted member's notifications from now on, and their feed copy goes.
    publishEvent(ctx, 'notifications', { recipientId: ctx.session.user.id });
    publishEvent(ctx, 'relations', { userId: ctx.session.user.id, otherId: mutedId, kind: 'mute' });
  }
  return { muted: true };
}

export async function unmute(ctx: AuthedContext, rawUserId: string): Promise<MuteResult> {
  const mutedId = requireUuid(rawUserId, USER_NOT_FOUND);
  if (!(await deleteMute(ctx.em, ctx.session.user.id, mutedId))) await requireUser(ctx.em, mutedId);
  else {
    publishEvent(ctx, 'notifications', { recipientId: ctx.session.user.id });
    publishEvent(ctx, 'relations', { userId: ctx.session.user.id, otherId: mutedId, kind: 'unmute' });
  }
  return { muted: false };
}

/** Newest first, ties broken by the member's id. */
const entryKeyset = keyset({ name: 'safety', order: 'desc', key: { since: 'timestamp', userId: 'uuid' } });

async function listEntries(
  ctx: AuthedContext,
  input: SafetyListInput,
  table: SafetyTable,
): Promise<Page<SafetyListEntry>> {
  const cursor = entryKeyset.decode(input.cursor);
  const columns = entryKeyColumns(table);
  const rows = await findEntries(ctx.em, table, {
    actorId: ctx.session.user.id,
    after: cursor ? entryKeyset.continuing(cursor, columns) : null,
    order: entryKeyset.ordering(columns),
    limit: input.limit + 1,
  });
  return entryKeyset.page(
    rows,
    input.limit,
    (row) => ({
      userId: row.user_id,
      username: row.username,
      displayName: row.display_name,
      avatarUrl: row.avatar_url,
      since: new Date(row.since),
    }),
    (row) => ({ since: row.since, userId: row.user_id }),
  );
}

export function listBlocked(ctx: AuthedContext, input: SafetyListInput): Promise<Page<SafetyListEntry>> {
  return listEntries(ctx, input, { name: 'blocks', actor: 'blocker_id', target: 'blocked_id' });
}

export function listMuted(ctx: AuthedContext, input: SafetyListInput): Promise<Page<SafetyListEntry>> {
  return listEntries(ctx, input, { name: 'mutes', actor: 'muter_id', target: 'muted_id' });
}
