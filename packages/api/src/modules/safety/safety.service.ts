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
import { TRPCError } from '@trpc/server';
import { type AuthedContext, publishEvent } from '../../context.js';
import { badRequest, notFound, requireUuid } from '../../errors.js';
import { keyset, type Page } from '../../paging.js';
import { isoTime } from '../../sql.js';
import { USER_NOT_FOUND } from '../users/user.repository.js';
import type { SafetyListInput } from './safety.schema.js';
import { notBlockedBetween } from './safety.sql.js';

export const CANNOT_BLOCK_SELF = 'You cannot block yourself';
export const CANNOT_MUTE_SELF = 'You cannot mute yourself';
/** What a blocked pair hears when one tries to follow the other. */
export const CANNOT_FOLLOW_BLOCKED = 'You cannot follow this user';

/** Where the viewer stands with another member. */
export interface Relationship {
  /** the viewer blocked them */
  blocking: boolean;
  /** they blocked the viewer */
  blockedBy: boolean;
  /** the viewer muted them */
  muting: boolean;
}

export const NO_RELATIONSHIP: Relationship = { blocking: false, blockedBy: false, muting: false };

/** Whether a block stands between the two members, in either direction. */
export async function isBlockedBetween(em: EntityManager, a: string, b: string): Promise<boolean> {
  const [row] = await em.execute<{ free: boolean }[]>(
    `select ${notBlockedBetween('?::uuid', '?::uuid')} as free`,
    [a, b, b, a],
  );
  return row ? !row.free : false;
}

/** 403 when a block stands between the two; the follow service asks before it writes. */
export async function requireNotBlocked(
  em: EntityManager,
  a: string,
  b: string,
  message: string,
): Promise<void> {
  if (await isBlockedBetween(em, a, b)) throw new TRPCError({ code: 'FORBIDDEN', message });
}

async function requireUser(em: EntityManager, userId: string): Promise<void> {
  const rows = await em.execute<unknown[]>('select 1 from users where id = ?', [userId]);
  if (rows.length === 0) throw notFound(USER_NOT_FOUND);
}

function targetOf(ctx: AuthedContext, rawUserId: string, selfMessage: string): string {
  const targetId = requireUuid(rawUserId, USER_NOT_FOUND);
  if (targetId === ctx.session.user.id) throw badRequest(selfMessage);
  return targetId;
}

/** Idempotent. Ends follows both ways and removes the notifications between the two. */
export async function block(ctx: AuthedContext, rawUserId: string): Promise<{ blocked: boolean }> {
  const blockedId = targetOf(ctx, rawUserId, CANNOT_BLOCK_SELF);
  const blockerId = ctx.session.user.id;
  await ctx.em.transactional(async (em) => {
    const inserted = await em.execute<unknown[]>(
      `insert into blocks (blocker_id, blocked_id, created_at)
       select ?, u.id, ? from users u where u.id = ?
       on conflict do nothing
       returning blocked_id`,
      [blockerId, ctx.now(), blockedId],
    );
    if (inserted.length === 0) {
      await requireUser(em, blockedId);
      return;
    }
    await em.execute(
      `delete from follows
        where (follower_id = ? and followee_id = ?) or (follower_id = ? and followee_id = ?)`,
      [blockerId, blockedId, blockedId, blockerId],
    );
    await em.execute(
      `delete from notifications
        where (recipient_id = ? and actor_id = ?) or (recipient_id = ? and actor_id = ?)`,
      [blockerId, blockedId, blockedId, blockerId],
    );
  });
  // Both bells may have lost a notification; the block itself is not announced.
  publishEvent(ctx, 'notifications', { recipientId: blockerId });
  publishEvent(ctx, 'notifications', { recipientId: blockedId });
  publishEvent(ctx, 'relations', { userId: blockerId, otherId: blockedId, kind: 'block' });
  return { blocked: true };
}

/** Idempotent. Follows that the block ended stay ended. */
export async function unblock(ctx: AuthedContext, rawUserId: string): Promise<{ blocked: boolean }> {
  const blockedId = requireUuid(rawUserId, USER_NOT_FOUND);
  const deleted = await ctx.em.execute<unknown[]>(
    'delete from blocks where blocker_id = ? and blocked_id = ? returning blocked_id',
    [ctx.session.user.id, blockedId],
  );
  if (deleted.length === 0) await requireUser(ctx.em, blockedId);
  else publishEvent(ctx, 'relations', { userId: ctx.session.user.id, otherId: blockedId, kind: 'unblock' });
  return { blocked: false };
}

/** Idempotent and silent: the muted member is not told, and nothing of theirs changes. */
export async function mute(ctx: AuthedContext, rawUserId: string): Promise<{ muted: boolean }> {
  const mutedId = targetOf(ctx, rawUserId, CANNOT_MUTE_SELF);
  const inserted = await ctx.em.execute<unknown[]>(
    `insert into mutes (muter_id, muted_id, created_at)
     select ?, u.id, ? from users u where u.id = ?
     on conflict do nothing
     returning muted_id`,
    [ctx.session.user.id, ctx.now(), mutedId],
  );
  if (inserted.length === 0) await requireUser(ctx.em, mutedId);
  else {
    // The muter's bell hides the muted member's notifications from now on, and their feed copy goes.
    publishEvent(ctx, 'notifications', { recipientId: ctx.session.user.id });
    publishEvent(ctx, 'relations', { userId: ctx.session.user.id, otherId: mutedId, kind: 'mute' });
  }
  return { muted: true };
}

export async function unmute(ctx: AuthedContext, rawUserId: string): Promise<{ muted: boolean }> {
  const mutedId = requireUuid(rawUserId, USER_NOT_FOUND);
  const deleted = await ctx.em.execute<unknown[]>(
    'delete from mutes where muter_id = ? and muted_id = ? returning muted_id',
    [ctx.session.user.id, mutedId],
  );
  if (deleted.length === 0) await requireUser(ctx.em, mutedId);
  else {
    publishEvent(ctx, 'notifications', { recipientId: ctx.session.user.id });
    publishEvent(ctx, 'relations', { userId: ctx.session.user.id, otherId: mutedId, kind: 'unmute' });
  }
  return { muted: false };
}

export interface SafetyListEntry {
  userId: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  since: Date;
}

interface EntryRow {
  user_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  since: string;
}

/** Newest first, ties broken by the member's id. */
const entryKeyset = keyset({ name: 'safety', order: 'desc', key: { since: 'timestamp', userId: 'uuid' } });

async function listEntries(
  ctx: AuthedContext,
  input: SafetyListInput,
  table: { name: 'blocks' | 'mutes'; actor: string; target: string },
): Promise<Page<SafetyListEntry>> {
  const cursor = entryKeyset.decode(input.cursor);
  const columns = { since: 'x.created_at', userId: `x.${table.target}` };
  const after = cursor ? entryKeyset.after(cursor, columns) : null;
  const rows = await ctx.em.execute<EntryRow[]>(
    `select u.id as user_id, u.username, u.display_name, u.avatar_url, ${isoTime('x.created_at')} as since
       from ${table.name} x
       join users u on u.id = x.${table.target}
      where x.${table.actor} = ?
        ${after ? `and ${after.sql}` : ''}
      order by ${entryKeyset.orderBy(columns)}
      limit ?`,
    [ctx.session.user.id, ...(after?.params ?? []), input.limit + 1],
  );
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
