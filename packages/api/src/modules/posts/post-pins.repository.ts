/**
 * Pinned posts: a member pins up to PINNED_POSTS_MAX of their own posts to the top of their
 * profile (profile-posts.repository.ts lists them first).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, sql, uuid } from '../../sql.js';

/**
 * Takes the author's row lock, so two pins at once are counted one after the other (the count
 * below runs in its own statement, after the lock, and sees the other's pin).
 */
export async function lockAuthor(em: EntityManager, authorId: string): Promise<void> {
  await firstRow(em, sql`select id from users where id = ${uuid(authorId)} for update`);
}

/** The author's own live post `postId`, whether it is pinned, and how many of theirs are. */
export async function findOwnPin(
  em: EntityManager,
  postId: string,
  authorId: string,
): Promise<{ pinned: boolean; pinned_count: number } | undefined> {
  return firstRow(
    em,
    sql`select p.pinned_at is not null as pinned,
               (select count(*)::int from posts o where o.author_id = ${uuid(authorId)} and o.pinned_at is not null
                   and o.removed_at is null) as pinned_count
          from posts p where p.id = ${uuid(postId)} and p.author_id = ${uuid(authorId)} and p.removed_at is null`,
  );
}

/** Pins (at `at`) or unpins the author's own post. */
export async function setPinned(
  em: EntityManager,
  postId: string,
  authorId: string,
  at: Date | null,
): Promise<void> {
  await firstRow(
    em,
    sql`update posts set pinned_at = ${at}::timestamptz where id = ${uuid(postId)} and author_id = ${uuid(authorId)}`,
  );
}
