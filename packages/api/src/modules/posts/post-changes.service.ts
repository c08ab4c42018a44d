/**
 * A post after it was published: its author deletes it (likes, comments, revisions and
 * notifications go with it through the foreign keys, in the same statement) or edits it within
 * POST_EDIT_WINDOW_MS (the text it replaced is kept in post_revisions). Both are told to every
 * open feed through the bus's `postChanges` topic, so other viewers drop or refresh the post.
 * Another member's post is 404 to both, so ids are not probed.
 */
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { type AuthedContext, type Context, publishEvent, sentWithWrite } from '../../context.js';
import { notFound, requireUuid } from '../../errors.js';
import type { EventTopics } from '../../events/event-bus.js';
import { isoTime } from '../../sql.js';
import { shownMemberById } from '../moderation/suspension.js';
import { notBlockedBetween, notBlockedParams } from '../safety/safety.sql.js';
import { findPostById } from './post.repository.js';
import { type EditPostInput, POST_EDIT_WINDOW_MS } from './post.schema.js';
import type { PostDto } from './post.serializer.js';
import { POST_NOT_FOUND } from './post.service.js';

export const EDIT_WINDOW_PASSED = 'Posts can only be edited in the first 15 minutes';

export type PostChange = EventTopics['postChanges'];

export async function deletePost(ctx: AuthedContext, rawPostId: string): Promise<{ ok: true }> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const authorId = ctx.session.user.id;
  const bells = await ctx.em.transactional(async (em) => {
    // Whose bells showed something about this post: they change when its notifications go.
    const recipients = await em.execute<{ recipient_id: string }[]>(
      `select distinct n.recipient_id from notifications n
         join posts p on p.id = n.post_id
        where p.id = ? and p.author_id = ?`,
      [postId, authorId],
    );
    const deleted = await em.execute<{ id: string }[]>(
      'delete from posts where id = ? and author_id = ? returning id',
      [postId, authorId],
    );
    if (deleted.length === 0) throw notFound(POST_NOT_FOUND);
    await ctx.bus.publish('postChanges', { postId, kind: 'deleted' }, em);
    return recipients.map((r) => r.recipient_id);
  });
  sentWithWrite(ctx, 'postChanges', { postId, kind: 'deleted' });
  for (const recipientId of bells) publishEvent(ctx, 'notifications', { recipientId });
  return { ok: true };
}

export async function editPost(ctx: AuthedContext, input: EditPostInput): Promise<{ post: PostDto }> {
  const postId = requireUuid(input.postId, POST_NOT_FOUND);
  const authorId = ctx.session.user.id;
  const now = ctx.now();
  const editableSince = new Date(now.getTime() - POST_EDIT_WINDOW_MS);
  const changed = await ctx.em.transactional(async (em) => {
    // The row lock orders two edits of one post, so each revision holds the text it replaced.
    const [post] = await em.execute<{ content: string; editable: boolean }[]>(
      `select content, created_at >= ? as editable from posts
        where id = ? and author_id = ? and removed_at is null for update`,
      [editableSince, postId, authorId],
    );
    if (!post) throw notFound(POST_NOT_FOUND);
    if (!post.editable) throw new TRPCError({ code: 'FORBIDDEN', message: EDIT_WINDOW_PASSED });
    if (post.content === input.content) return false; // nothing to keep, nothing to tell
    await em.execute(
      `insert into post_revisions (id, post_id, content, written_at, replaced_at)
       select ?, id, content, coalesce(edited_at, created_at), ? from posts where id = ?`,
      [randomUUID(), now, postId],
    );
    await em.execute('update posts set content = ?, edited_at = ? where id = ?', [
      input.content,
      now,
      postId,
    ]);
    await ctx.bus.publish('postChanges', { postId, kind: 'edited' }, em);
    return true;
  });
  if (changed) sentWithWrite(ctx, 'postChanges', { postId, kind: 'edited' });
  const post = await findPostById(ctx.em, postId, authorId);
  if (!post) throw notFound(POST_NOT_FOUND); // deleted in the meantime
  return { post };
}

export interface PostRevisionDto {
  id: string;
  content: string;
  writtenAt: Date;
  replacedAt: Date;
}

/**
 * Anyone who can see a post can see what it said before (as on Mastodon); a post hidden by a
 * block either way, a removal or its author's suspension is 404 here too, as on `posts.byId`.
 */
export async function listRevisions(
  ctx: Context,
  rawPostId: string,
): Promise<{ revisions: PostRevisionDto[] }> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const rows = await ctx.em.execute<
    { id: string | null; content: string | null; written_at: string | null; replaced_at: string | null }[]
  >(
    // The left join tells an unknown post (no row) from a post never edited (one row of nulls).
    `select r.id, r.content, ${isoTime('r.written_at')} as written_at,
            ${isoTime('r.replaced_at')} as replaced_at
       from posts p
       left join post_revisions r on r.post_id = p.id
      where p.id = ? and p.removed_at is null and ${notBlockedBetween('?::uuid', 'p.author_id')}
        and ${shownMemberById('p.author_id')}
      order by r.replaced_at desc, r.id desc`,
    [postId, ...notBlockedParams(ctx.session?.user.id ?? null)],
  );
  if (rows.length === 0) throw notFound(POST_NOT_FOUND);
  return {
    revisions: rows.flatMap((row) =>
      row.id === null
        ? []
        : [
            {
              id: row.id,
              content: row.content ?? '',
              writtenAt: new Date(row.written_at ?? 0),
              replacedAt: new Date(row.replaced_at ?? 0),
            },
          ],
    ),
  };
}

/**
 * Deletions, edits and comment changes of posts, live, for open feeds and threads. Nothing to
 * catch up on after a reconnect (a deleted row is gone): clients refetch what they show then.
 */
export async function* livePostChanges(
  ctx: Context,
  signal: AbortSignal | undefined,
): AsyncGenerator<PostChange> {
  for await (const change of ctx.bus.subscribe('postChanges', { signal })) yield change;
}
