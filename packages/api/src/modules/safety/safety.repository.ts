/**
 * Every SQL statement of blocks and mutes: writing and removing them (idempotent, keyed by the
 * (actor, target) primary key), what a block ends (follows and notifications between the two) and
 * Settings' lists. The conditions other modules apply to their reads are in safety.sql.ts.
 */
import type { IUser, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, iso, raw, rows, type Sql, sql } from '../../sql.js';
import { notBlocked } from './safety.sql.js';

/** Whether a block stands between the two members, in either direction. */
export async function isBlockedBetween(em: EntityManager, a: string, b: string): Promise<boolean> {
  const row = await firstRow<{ free: boolean }>(em, sql`select ${notBlocked(a, b)} as free`);
  return row ? !row.free : false;
}

/** The members `memberId` blocked and those who blocked them (both indexes: the key and blocks_blocked_index). */
export async function findBlockedEitherWay(em: EntityManager, memberId: string): Promise<string[]> {
  const found = await rows<{ id: string }>(
    em,
    sql`select blocked_id as id from blocks where blocker_id = ${memberId}
        union select blocker_id from blocks where blocked_id = ${memberId}`,
  );
  return found.map((row) => row.id);
}

export async function userExists(em: EntityManager, userId: string): Promise<boolean> {
  const found = await rows<unknown>(em, sql`select 1 from users where id = ${userId}`);
  return found.length > 0;
}

/** Whether a new block was written (false: already there, or `blockedId` names no one). */
export async function insertBlock(
  em: EntityManager,
  blockerId: string,
  blockedId: string,
  at: Date,
): Promise<boolean> {
  const inserted = await rows<unknown>(
    em,
    sql`insert into blocks (blocker_id, blocked_id, created_at)
       select ${blockerId}, u.id, ${at} from users u where u.id = ${blockedId}
       on conflict do nothing
       returning blocked_id`,
  );
  return inserted.length > 0;
}

/** Ends the follows between the two, both ways. */
export async function deleteFollowsBetween(em: EntityManager, a: string, b: string): Promise<void> {
  await rows(
    em,
    sql`delete from follows
        where (follower_id = ${a} and followee_id = ${b}) or (follower_id = ${b} and followee_id = ${a})`,
  );
}

/** Removes the notifications between the two, both ways. */
export async function deleteNotificationsBetween(em: EntityManager, a: string, b: string): Promise<void> {
  await rows(
    em,
    sql`delete from notifications
        where (recipient_id = ${a} and actor_id = ${b}) or (recipient_id = ${b} and actor_id = ${a})`,
  );
}

/** Whether a block was there to remove. */
export async function deleteBlock(em: EntityManager, blockerId: string, blockedId: string): Promise<boolean> {
  const deleted = await rows<unknown>(
    em,
    sql`delete from blocks where blocker_id = ${blockerId} and blocked_id = ${blockedId} returning blocked_id`,
  );
  return deleted.length > 0;
}

/** Whether a new mute was written (false: already there, or `mutedId` names no one). */
export async function insertMute(
  em: EntityManager,
  muterId: string,
  mutedId: string,
  at: Date,
): Promise<boolean> {
  const inserted = await rows<unknown>(
    em,
    sql`insert into mutes (muter_id, muted_id, created_at)
     select ${muterId}, u.id, ${at} from users u where u.id = ${mutedId}
     on conflict do nothing
     returning muted_id`,
  );
  return inserted.length > 0;
}

/** Whether a mute was there to remove. */
export async function deleteMute(em: EntityManager, muterId: string, mutedId: string): Promise<boolean> {
  const deleted = await rows<unknown>(
    em,
    sql`delete from mutes where muter_id = ${muterId} and muted_id = ${mutedId} returning muted_id`,
  );
  return deleted.length > 0;
}

/** A member in a blocked or muted list, `since` as ISO text (the keyset needs the microseconds). */
export type EntryRow = Pick<Row<IUser>, 'username' | 'display_name' | 'avatar_url'> & {
  user_id: string;
  since: string;
};

/** A list's table, the column of its actor and of its target. */
export interface SafetyTable {
  name: 'blocks' | 'mutes';
  actor: string;
  target: string;
}

/** The sort key's columns of a list (`x` is its table). */
export function entryKeyColumns(table: SafetyTable): { since: string; userId: string } {
  return { since: 'x.created_at', userId: `x.${table.target}` };
}

/** Up to `limit` members `actorId` blocked or muted, after `after` (a keyset condition), in `order`. */
export function findEntries(
  em: EntityManager,
  table: SafetyTable,
  query: { actorId: string; after: Sql | null; order: Sql; limit: number },
): Promise<EntryRow[]> {
  return rows<EntryRow>(
    em,
    sql`select u.id as user_id, u.username, u.display_name, u.avatar_url, ${iso('x.created_at')} as since
       from ${raw(table.name)} x
       join users u on u.id = x.${raw(table.target)}
      where x.${raw(table.actor)} = ${query.actorId}
        ${query.after ? sql`and ${query.after}` : raw('')}
      order by ${query.order}
      limit ${query.limit}`,
  );
}
