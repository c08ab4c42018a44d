/**
 * Who to follow: the side column on wide screens and Search's "Suggested for you" on narrow ones.
 * The rules (whom it never suggests) are in suggestion.repository.ts's one statement; a visitor
 * gets the members who posted lately.
 */
import { type Context, readEm } from '../../context.js';
import { findSuggestions, type SuggestionRow } from './suggestion.repository.js';
import type { SuggestedUser, SuggestionsInput, SuggestionsResult } from './suggestion.schema.js';

function toSuggestedUser(row: SuggestionRow): SuggestedUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    bio: row.bio,
    followersCount: row.followers_count,
    reason: row.reason,
    followedBy: row.followed_by,
  };
}

export async function suggestions(ctx: Context, input: SuggestionsInput): Promise<SuggestionsResult> {
  const viewerId = ctx.session?.user.id ?? null;
  // The primary for a member (whom they just followed must leave the list); a replica for visitors.
  const em = viewerId ? ctx.em : readEm(ctx);
  const found = await findSuggestions(em, viewerId, input.limit);
  return { items: found.map(toSuggestedUser) };
}
