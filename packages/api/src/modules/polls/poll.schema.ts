/**
 * Polls: the poll a new post may carry (createPostInput's `poll`), a vote, and the poll as post
 * answers carry it. One definition for the procedure, the REST body and the web form.
 */
import { z } from 'zod';
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
export const pollOptionSchema = text('A poll option', { error: 'A poll option must be text' })
  .trim()
  .min(1, 'A poll option cannot be empty')
  .refine((value) => Array.from(value).length <= POLL_OPTION_MAX_LENGTH, {
    message: `A poll option must be at most ${POLL_OPTION_MAX_LENGTH} characters`,
    abort: true,
  })
  // The refinement as JSON Schema, for the OpenAPI document (a limit in UTF-16 units is looser).
  .meta({ maxLength: POLL_OPTION_MAX_LENGTH * 2 });

/** A new post's poll: 2 to 4 different options (case-insensitively), open 5 minutes to 7 days. */
export const pollInput = z.object(
  {
    options: z
      .array(pollOptionSchema, { error: 'Poll options must be a list' })
      .min(POLL_OPTIONS_MIN, `A poll needs at least ${POLL_OPTIONS_MIN} options`)
      .max(POLL_OPTIONS_MAX, `A poll has at most ${POLL_OPTIONS_MAX} options`)
      .refine((options) => new Set(options.map((o) => o.toLocaleLowerCase())).size === options.length, {
        message: 'Poll options must all be different',
      }),
    expiresInMinutes: z
      .int({ error: 'The poll’s duration must be a whole number of minutes' })
      .min(POLL_MINUTES_MIN, `A poll runs at least ${POLL_MINUTES_MIN} minutes`)
      .max(POLL_MINUTES_MAX, 'A poll runs at most 7 days'),
    multiple: z.boolean({ error: 'multiple must be true or false' }).optional(),
  },
  { error: 'A poll must be an object' },
);
export type PollInput = z.infer<typeof pollInput>;

/** A vote: the indexes of the chosen options (one, or several in a multiple-choice poll). */
export const voteInput = z.object({
  // As post.schema's entityIdSchema (which imports this module: the post answer carries a poll).
  postId: text('Id', { error: 'Id is required' }).min(1, 'Id is required').max(100, 'Id is too long'),
  choices: z
    .array(
      z.int({ error: 'A choice must be an option’s index' }).min(0, 'A choice must be an option’s index'),
      {
        error: 'Choices must be a list of option indexes',
      },
    )
    .min(1, 'Choose at least one option')
    .max(POLL_OPTIONS_MAX, `A poll has at most ${POLL_OPTIONS_MAX} options`)
    .refine((choices) => new Set(choices).size === choices.length, { message: 'An option is chosen twice' }),
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
