/**
 * Polls: the poll a new post may carry (createPostInput's `poll`), a vote, and the poll as post
 * answers carry it. One definition for the procedure, the REST body and the web form.
 */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import {
  POLL_MINUTES_MAX,
  POLL_MINUTES_MIN,
  POLL_OPTION_MAX_LENGTH,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
} from '../../rules.js';
import { text } from '../../text.js';

export {
  POLL_MINUTES_MAX,
  POLL_MINUTES_MIN,
  POLL_OPTION_MAX_LENGTH,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
} from '../../rules.js';

/** One option's text: trimmed, 1 to 50 characters (code points: an emoji is one). */
export const pollOptionSchema = text('A poll option', { error: ERROR_REASONS.POLL_OPTION_NOT_TEXT })
  .trim()
  .min(1, ERROR_REASONS.POLL_OPTION_EMPTY)
  .refine((value) => Array.from(value).length <= POLL_OPTION_MAX_LENGTH, {
    message: ERROR_REASONS.POLL_OPTION_TOO_LONG,
    abort: true,
  })
  // The refinement as JSON Schema, for the OpenAPI document (a limit in UTF-16 units is looser).
  .meta({ maxLength: POLL_OPTION_MAX_LENGTH * 2 });

/** A new post's poll: 2 to 4 different options (case-insensitively), open 5 minutes to 7 days. */
export const pollInput = z.object(
  {
    options: z
      .array(pollOptionSchema, { error: ERROR_REASONS.POLL_OPTIONS_NOT_LIST })
      .min(POLL_OPTIONS_MIN, ERROR_REASONS.POLL_TOO_FEW_OPTIONS)
      .max(POLL_OPTIONS_MAX, ERROR_REASONS.POLL_TOO_MANY_OPTIONS)
      .refine((options) => new Set(options.map((o) => o.toLocaleLowerCase())).size === options.length, {
        message: ERROR_REASONS.POLL_OPTIONS_NOT_DIFFERENT,
      }),
    expiresInMinutes: z
      .int({ error: ERROR_REASONS.POLL_DURATION_NOT_WHOLE })
      .min(POLL_MINUTES_MIN, ERROR_REASONS.POLL_TOO_SHORT)
      .max(POLL_MINUTES_MAX, ERROR_REASONS.POLL_TOO_LONG),
    multiple: z.boolean({ error: ERROR_REASONS.POLL_MULTIPLE_NOT_BOOLEAN }).optional(),
  },
  { error: ERROR_REASONS.POLL_NOT_OBJECT },
);
export type PollInput = z.infer<typeof pollInput>;

/** A vote: the indexes of the chosen options (one, or several in a multiple-choice poll). */
export const voteInput = z.object({
  // As post.schema's entityIdSchema (which imports this module: the post answer carries a poll).
  postId: text('Id', { error: ERROR_REASONS.ID_REQUIRED })
    .min(1, ERROR_REASONS.ID_REQUIRED)
    .max(100, ERROR_REASONS.ID_TOO_LONG),
  choices: z
    .array(z.int({ error: ERROR_REASONS.CHOICE_INVALID }).min(0, ERROR_REASONS.CHOICE_INVALID), {
      error: ERROR_REASONS.CHOICES_NOT_LIST,
    })
    .min(1, ERROR_REASONS.CHOICE_REQUIRED)
    .max(POLL_OPTIONS_MAX, ERROR_REASONS.POLL_TOO_MANY_OPTIONS)
    .refine((choices) => new Set(choices).size === choices.length, { message: ERROR_REASONS.CHOICE_TWICE }),
});
export type VoteInput = z.infer<typeof voteInput>;

export const pollOptionResult = z.strictObject({
  text: z.string(),
  /**
   * Votes for this option; null while the viewer may not see results yet (before they voted and
   * before the poll ended, unless they wrote it): results are never sent early.
   */
  votesCount: z.int().nonnegative().nullable(),
});

/**
 * A post's poll as the viewer sees it. `votersCount` (how many people voted) is always shown; the
 * counts per option only to its author, to members who voted and, once it ended, to everyone.
 * `ownChoices` are the viewer's chosen options (empty when they have not voted, or are a visitor).
 */
export const pollSchema = z.strictObject({
  options: z.array(pollOptionResult).min(POLL_OPTIONS_MIN).max(POLL_OPTIONS_MAX),
  votersCount: z.int().nonnegative(),
  expiresAt: z.iso.datetime(),
  multiple: z.boolean(),
  ownChoices: z.array(z.int().nonnegative()),
  expired: z.boolean(),
});
export type PollDto = z.infer<typeof pollSchema>;

export const voteResult = z.strictObject({ poll: pollSchema });
export type VoteResult = z.infer<typeof voteResult>;
