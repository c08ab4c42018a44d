/**
 * The statements behind a post's changes after it was published (post-changes.service.ts): its
 * author deleting it, editing it (the replaced text kept in post_revisions), and anyone who may
 * see it reading its previous versions.
 */
import type { AsText, IPostRevision, PostImageData, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, iso, rows, sql } from '../../sql.js';
import { shownMemberOf } from '../moderation/suspension.sql.js';
import { column, notBlocked } from '../safety/safety.sql.js';

/** The members whose bells show something about the post `postId` of `authorId`. */
export async function notifiedAboutPost(
  em: EntityManager,
  postId: string,
  authorId: string,
): Promise<string[]> {
  const found = await rows<{ recipient_id: string }>(
    em,
    sql`select distinct n.recipient_id from notifications n
         join posts p on p.id = n.post_id
        where p.id = ${postId} and p.author_id = ${authorId}`,
  );
  return found.map((r) => r.recipient_id);
}

/**
 * Deletes `authorId`'s post `postId` (likes, comments, revisions, notifications go by foreign
 * key): whether a moderator had removed it, or undefined when there is none.
 */
export function deleteOwnPost(
  em: EntityManager,
  postId: string,
  authorId: string,
): Promise<{ removed: boolean } | undefined> {
  return firstRow(
    em,
    sql`delete from posts where id = ${postId} and author_id = ${authorId}
        returning removed_at is not null as removed`,
  );
}

/**
 * `authorId`'s post `postId` (not removed), locked for update: its text, its images and whether
 * it was written at or after `editableSince`. The row lock orders two edits of one post, so each
 * revision holds the text it replaced.
 */
export function lockOwnPost(
  em: EntityManager,
  postId: string,
  authorId: string,
  editableSince: Date,
): Promise<
  { content: string; content_warning: string | null; images: PostImageData[]; editable: boolean } | undefined
> {
  return firstRow(
    em,
    sql`select content, content_warning, images, created_at >= ${editableSince} as editable from posts
        where id = ${postId} and author_id = ${authorId} and removed_at is null for update`,
  );
}

/** Writes the post's images (new descriptions of the same images); not an edit of its text. */
export async function replacePostImages(
  em: EntityManager,
  postId: string,
  images: PostImageData[],
): Promise<void> {
  await rows(em, sql`update posts set images = ${JSON.stringify(images)}::jsonb where id = ${postId}`);
}

/** Writes the post's content warning (null: none); not an edit of its text. */
export async function replacePostContentWarning(
  em: EntityManager,
  postId: string,
  contentWarning: string | null,
): Promise<void> {
  await rows(em, sql`update posts set content_warning = ${contentWarning} where id = ${postId}`);
}

/** Keeps the post's current text as a revision replaced at `replacedAt`, then writes `content`. */
export async function replacePostContent(
  em: EntityManager,
  edit: { revisionId: string; postId: string; content: string; now: Date },
): Promise<void> {
  await rows(
    em,
    sql`insert into post_revisions (id, post_id, content, written_at, replaced_at)
       select ${edit.revisionId}, id, content, coalesce(edited_at, created_at), ${edit.now} from posts where id = ${edit.postId}`,
  );
  await rows(
    em,
    sql`update posts set content = ${edit.content}, edited_at = ${edit.now} where id = ${edit.postId}`,
  );
}

/** A revision row, or a row of nulls for a post never edited (times as ISO text). */
type Revision = AsText<
  Pick<Row<IPostRevision>, 'id' | 'content' | 'written_at' | 'replaced_at'>,
  'written_at' | 'replaced_at'
>;
export type RevisionRow = { [K in keyof Revision]: Revision[K] | null };

/**
 * The revisions of `postId`, newest first, if `viewerId` may see the post (not removed, no block
 * either way, author not suspended): no row for a post they may not see, one row of nulls for a
 * post never edited (the left join tells the two apart).
 */
export function findRevisions(
  em: EntityManager,
  postId: string,
  viewerId: string | null,
): Promise<RevisionRow[]> {
  const author = column('p.author_id');
  return rows<RevisionRow>(
    em,
    sql`select r.id, r.content, ${iso('r.written_at')} as written_at,
            ${iso('r.replaced_at')} as replaced_at
       from posts p
       left join post_revisions r on r.post_id = p.id
      where p.id = ${postId} and p.removed_at is null and ${notBlocked(viewerId, author)}
        and ${shownMemberOf(author)}
      order by r.replaced_at desc, r.id desc`,
  );
}
