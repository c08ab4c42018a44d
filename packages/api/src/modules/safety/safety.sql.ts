/**
 * Blocks and mutes as SQL conditions, so every read and write path states the rule the same way.
 * Each function takes two sides, each a member id (bound as a parameter) or a fragment naming a
 * column (`raw('p.author_id')`), and returns a fragment (sql.ts) that carries its own parameters.
 * A null viewer id matches no row, so for visitors nothing is hidden.
 */
import { raw, type Sql, sql, uuid } from '../../sql.js';

/** One side of a condition: a member id, null (a visitor), or an SQL expression such as a column. */
export type Member = string | null | Sql;

function side(member: Member): Sql {
  return typeof member === 'string' || member === null ? uuid(member) : member;
}

/** No block in either direction between `a` and `b`. */
export function notBlocked(a: Member, b: Member): Sql {
  const x = side(a);
  const y = side(b);
  return sql`not exists (select 1 from blocks blk
    where (blk.blocker_id = ${x} and blk.blocked_id = ${y}) or (blk.blocker_id = ${y} and blk.blocked_id = ${x}))`;
}

/** `muter` has not muted `muted`. */
export function notMuted(muter: Member, muted: Member): Sql {
  return sql`not exists (select 1 from mutes mut where mut.muter_id = ${side(muter)} and mut.muted_id = ${side(muted)})`;
}

/** `author` is someone whose posts `viewer`'s feeds show: no block either way, not muted by the viewer. */
export function inFeedOf(viewer: Member, author: Member): Sql {
  return sql`${notBlocked(viewer, author)} and ${notMuted(viewer, author)}`;
}

/**
 * Where `viewer` stands with `other` as three boolean columns named as `Relationship`'s fields:
 * "blocking" (the viewer blocked them), "blockedBy", "muting".
 */
export function relationship(viewer: Member, other: Member): Sql {
  const v = side(viewer);
  const o = side(other);
  return sql`exists (select 1 from blocks where blocker_id = ${v} and blocked_id = ${o}) as "blocking",
    exists (select 1 from blocks where blocker_id = ${o} and blocked_id = ${v}) as "blockedBy",
    exists (select 1 from mutes where muter_id = ${v} and muted_id = ${o}) as "muting"`;
}

/** A column as one side of a condition: `column('p.author_id')`. */
export function column(name: string): Sql {
  return raw(name);
}
