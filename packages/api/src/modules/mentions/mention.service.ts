/**
 * Mentions: `@username` in a post or comment (text-links.ts finds them) links to an existing
 * member, matched case-insensitively, and notifies them with a 'mention' notification: at most
 * MENTIONS_MAX per post, an edit only the newly mentioned, none to the author, none when a block
 * stands between them either way, none when the member muted the author. The bell of each
 * notified member hears it through the bus (`notifications`), on every instance.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, publishEvent } from '../../context.js';
import { mentionedUsernames } from '../../text-links.js';
import { findMentionSuggestions, insertCommentMentions, replacePostMentions } from './mention.repository.js';
import type { MentionDto, MentionSuggestInput, MentionSuggestResult } from './mention.schema.js';

/**
 * After a post was written or edited, in its transaction (`em`): what it mentions now, and whom
 * to tell once that commits (`tellMentioned`).
 */
export async function mentionsInPost(
  em: EntityManager,
  ctx: AuthedContext,
  post: { id: string; content: string },
): Promise<{ mentions: MentionDto[]; notified: string[] }> {
  return replacePostMentions(em, {
    postId: post.id,
    authorId: ctx.session.user.id,
    usernames: mentionedUsernames(post.content),
    now: ctx.now(),
  });
}

/** The bells of the newly mentioned, on every instance. */
export function tellMentioned(ctx: AuthedContext, recipients: string[]): void {
  for (const recipientId of recipients) publishEvent(ctx, 'notifications', { recipientId });
}

/** After a comment was written: whom it mentions, each told. */
export async function mentionInComment(
  ctx: AuthedContext,
  comment: { id: string; postId: string; content: string },
): Promise<MentionDto[]> {
  const usernames = mentionedUsernames(comment.content);
  if (usernames.length === 0) return [];
  const { mentions, notified } = await insertCommentMentions(ctx.em, {
    commentId: comment.id,
    postId: comment.postId,
    authorId: ctx.session.user.id,
    usernames,
    now: ctx.now(),
  });
  tellMentioned(ctx, notified);
  return mentions;
}

/** Who to offer after `@`: members the caller follows first. */
export async function suggestMentions(
  ctx: AuthedContext,
  input: MentionSuggestInput,
): Promise<MentionSuggestResult> {
  return { users: await findMentionSuggestions(ctx.em, ctx.session.user.id, input.q, input.limit) };
}
