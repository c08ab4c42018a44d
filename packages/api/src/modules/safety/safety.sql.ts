/**
 * Blocks and mutes as SQL conditions, so every read and write path states the rule the same way.
 * Each function takes SQL expressions (a column such as `p.author_id`, or `?::uuid` for a bound
 * viewer id) and returns a condition; a `?` passed in is bound once per place it appears, as the
 * doc of each function says. A null viewer id matches no row, so for visitors nothing is hidden.
 */

/** No block in either direction between `a` and `b` (each expression appears twice). */
export function notBlockedBetween(a: string, b: string): string {
  return `not exists (select 1 from blocks blk
    where (blk.blocker_id = ${a} and blk.blocked_id = ${b}) or (blk.blocker_id = ${b} and blk.blocked_id = ${a}))`;
}

/** `muter` has not muted `muted` (each expression appears once). */
export function notMutedBy(muter: string, muted: string): string {
  return `not exists (select 1 from mutes mut where mut.muter_id = ${muter} and mut.muted_id = ${muted})`;
}

/**
 * The authors whose posts a viewer's feeds leave out: blocked either way, or muted by the viewer.
 * Binds the viewer id three times: `[viewer, viewer, viewer]`.
 */
export function feedVisibleAuthor(author: string): string {
  return `${notBlockedBetween('?::uuid', author)} and ${notMutedBy('?::uuid', author)}`;
}

/**
 * Where `viewer` stands with `other` as three boolean columns named as `Relationship`'s fields:
 * "blocking" (the viewer blocked them), "blockedBy", "muting". Each expression appears three
 * times, in the order `viewer, other, other, viewer, viewer, other`.
 */
export function relationshipColumns(viewer: string, other: string): string {
  return `exists (select 1 from blocks where blocker_id = ${viewer} and blocked_id = ${other}) as "blocking",
    exists (select 1 from blocks where blocker_id = ${other} and blocked_id = ${viewer}) as "blockedBy",
    exists (select 1 from mutes where muter_id = ${viewer} and muted_id = ${other}) as "muting"`;
}

/** The parameters of `feedVisibleAuthor`. */
export function feedVisibleParams(viewerId: string | null): unknown[] {
  return [viewerId, viewerId, viewerId];
}

/** The parameters of `notBlockedBetween('?::uuid', column)`. */
export function notBlockedParams(viewerId: string | null): unknown[] {
  return [viewerId, viewerId];
}
