/**
 * Who to follow: the side column on wide screens and Search's "Suggested for you" on narrow ones.
 * The rules (whom it never suggests) are in suggestion.repository.ts's one statement; a visitor
 * gets the members who posted lately.
 */
import { type Context, readEm } from '../../context.js';
import { findSuggestions, type SuggestionRow } from './suggestion.repository.js';
import type { SuggestedUser, SuggestionsInput, SuggestionsResult } from './suggestion.schema.js';
import { toUserCard } from './user-card.serializer.js';

function toSuggestedUser(row: SuggestionRow): SuggestedUser {
  return {
    ...toUserCard(row),
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
