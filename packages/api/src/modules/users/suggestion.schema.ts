/** Who to follow (the side column, Search's "Suggested for you"): input and answer. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { userCardShape } from './user-card.schema.js';

export const SUGGESTIONS_DEFAULT = 5;
export const SUGGESTIONS_MAX = 20;

export const suggestionsInput = z
  .object({
    limit: z
      .number({ error: ERROR_REASONS.LIMIT_NOT_A_NUMBER })
      .int(ERROR_REASONS.LIMIT_NOT_WHOLE)
      .min(1, ERROR_REASONS.SUGGESTION_LIMIT_OUT_OF_RANGE)
      .max(SUGGESTIONS_MAX, ERROR_REASONS.SUGGESTION_LIMIT_OUT_OF_RANGE)
      .default(SUGGESTIONS_DEFAULT),
  })
  .prefault({});
export type SuggestionsInput = z.infer<typeof suggestionsInput>;

/**
 * A member to follow: the public user card, and why. `reason`: `followed` (people you follow follow them; `followedBy` of them)
 * or `active` (they posted lately).
 */
export const suggestedUserSchema = z.strictObject({
  ...userCardShape,
  reason: z.enum(['followed', 'active']),
  followedBy: z.int().nonnegative(),
});
export type SuggestedUser = z.infer<typeof suggestedUserSchema>;

export const suggestionsResult = z.strictObject({ items: z.array(suggestedUserSchema) });
export type SuggestionsResult = z.infer<typeof suggestionsResult>;
