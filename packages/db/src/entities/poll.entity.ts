import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/**
 * A post's poll: 2 to 4 options, one choice or several (`multiple`), open until `expiresAt`.
 * `votesCounts` (one count per option, in the options' order) and `votersCount` are denormalised
 * counters, changed in the same statement as the PollVote they count (the row lock keeps them
 * exact under concurrent votes). `endedNotifiedAt` is set in the same transaction as the
 * 'poll_ended' notifications, so they are written once however many runners try.
 */
export const Poll = defineEntity({
  name: 'Poll',
  tableName: 'polls',
  indexes: [
    {
      // The sweep for polls whose end-of-poll job was lost: ended, not yet announced.
      name: 'polls_unnotified_expires_at_index',
      expression:
        'create index "polls_unnotified_expires_at_index" on "polls" ("expires_at") where "ended_notified_at" is null',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [
    { name: 'polls_options_check', expression: "jsonb_typeof(options) = 'array'::text" },
    { name: 'polls_voters_count_check', expression: 'voters_count >= 0' },
  ],
  properties: {
    post: () => p.oneToOne(Post).primary().owner().deleteRule('cascade'),
    /** the options' texts, in the author's order */
    options: p.json<string[]>(),
    /** one count per option, in the options' order */
    votesCounts: p.json<number[]>(),
    votersCount: p.integer().default(0),
    multiple: p.boolean().default(false),
    expiresAt: p.datetime(),
    endedNotifiedAt: p.datetime().nullable(),
  },
});
export type IPoll = InferEntity<typeof Poll>;

/** A member's vote on a poll, once: the pair is the primary key. `choices` are option indexes. */
export const PollVote = defineEntity({
  name: 'PollVote',
  tableName: 'poll_votes',
  indexes: [{ name: 'poll_votes_user_id_index', properties: ['user'] }],
  properties: {
    poll: () => p.manyToOne(Poll).primary().deleteRule('cascade').fieldName('post_id'),
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    choices: p.json<number[]>(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IPollVote = InferEntity<typeof PollVote>;
