/**
 * The mentions procedure: members to offer while typing `@` (GET /api/mentions/suggest). Each
 * declares its input and its `.output()` schema once; the service holds the rules.
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure } from '../../trpc.js';
import { mentionSuggestInput, mentionSuggestResult } from './mention.schema.js';
import { suggestMentions } from './mention.service.js';

export const mentionsRouter = createTRPCRouter({
  /** Members whose username starts with `query`, those the caller follows first. */
  suggest: limitedProcedure('search')
    .input(mentionSuggestInput)
    .output(output(mentionSuggestResult))
    .query(({ ctx, input }) => suggestMentions(ctx, input)),
});
