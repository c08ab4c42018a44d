/** Mentions: the `{id, username}` post and comment answers carry, and the `@` suggestions. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { text } from '../../text.js';

/** A member a post or comment mentions: its `@username` links to their profile. */
export const mentionSchema = z.strictObject({ id: z.uuid(), username: z.string() });
export type MentionDto = z.infer<typeof mentionSchema>;

export const MENTION_SUGGESTIONS_MAX = 8;

/** What follows the `@` so far (may be empty: then only members the caller follows). */
export const mentionSuggestInput = z.object({
  q: text('Query')
    .max(30, ERROR_REASONS.MENTION_QUERY_TOO_LONG)
    .regex(/^[A-Za-z0-9_]*$/, ERROR_REASONS.MENTION_QUERY_INVALID),
  limit: z.int().min(1).max(MENTION_SUGGESTIONS_MAX).default(MENTION_SUGGESTIONS_MAX),
});
export type MentionSuggestInput = z.infer<typeof mentionSuggestInput>;

export const mentionSuggestionSchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  isFollowing: z.boolean(),
});
export type MentionSuggestion = z.infer<typeof mentionSuggestionSchema>;

export const mentionSuggestResult = z.strictObject({ users: z.array(mentionSuggestionSchema) });
export type MentionSuggestResult = z.infer<typeof mentionSuggestResult>;
