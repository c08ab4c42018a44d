/**
 * The statements on polls. A vote and the poll's counters change in one statement: the vote's
 * insert (once per member: the poll_votes primary key) and the counters' update of the poll's row,
 * whose row lock makes concurrent votes add up exactly. A poll's end is announced once: the claim
 * (`ended_notified_at`) and the notifications commit together. Times are the database's clock.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { rows, sql } from '../../sql.js';
import { shownMember } from '../moderation/suspension.sql.js';
import { column, notBlocked } from '../safety/safety.sql.js';
import type { PollDto } from './poll.schema.js';
import { type PollRow, toPollDto } from './poll.serializer.js';
import { pollValue } from './poll.sql.js';

/** A new post's poll, in the post's transaction; answers it as its author sees it. */
export async function insertPoll(
  em: EntityManager,
  poll: { postId: string; options: string[]; multiple: boolean; expiresAt: Date },
): Promise<PollDto> {
  await rows(
    em,
    sql`insert into polls (post_id, options, votes_counts, voters_count, multiple, expires_at)
        values (${poll.postId}, ${JSON.stringify(poll.options)}::jsonb,
                ${JSON.stringify(poll.options.map(() => 0))}::jsonb, 0, ${poll.multiple}, ${poll.expiresAt})`,
  );
  return {
    options: poll.options.map((text) => ({ text, votesCount: 0 })),
    votersCount: 0,
    expiresAt: poll.expiresAt.toISOString(),
    multiple: poll.multiple,
    ownChoices: [],
    expired: false,
  };
}

/** A poll as a voter meets it: what a vote is checked against. */
export interface VoteTargetRow {
  options_count: number;
  multiple: boolean;
  expired: boolean;
  voted: boolean;
}

/**
 * The poll of `postId` if `viewerId` may see the post (not removed, its author not suspended, no
 * block either way), else undefined.
 */
export async function findVoteTarget(
  em: EntityManager,
  postId: string,
  viewerId: string,
): Promise<VoteTargetRow | undefined> {
  const [row] = await preparedRows<VoteTargetRow>(
    em,
    sql`select jsonb_array_length(po.options) as options_count, po.multiple, po.expires_at <= now() as expired,
            exists (select 1 from poll_votes pv where pv.post_id = po.post_id and pv.user_id = ${viewerId}) as voted
       from polls po
       join posts p on p.id = po.post_id
       join users u on u.id = p.author_id
      where po.post_id = ${postId} and p.removed_at is null and ${shownMember('u')}
        and ${notBlocked(viewerId, column('p.author_id'))}`,
  );
  return row;
}

/**
 * `userId`'s vote for `choices` (checked against the poll), with the poll's counters, in one
 * statement: 'voted', 'already' when they had voted (a concurrent vote of theirs won), or 'ended'.
 */
export async function insertVote(
  em: EntityManager,
  vote: { postId: string; userId: string; choices: number[] },
): Promise<'voted' | 'already' | 'ended'> {
  const choices = JSON.stringify(vote.choices);
  const [row] = await rows<{ voted: boolean; open: boolean }>(
    em,
    sql`with ins as (
       insert into poll_votes (post_id, user_id, choices, created_at)
       select po.post_id, ${vote.userId}, ${choices}::jsonb, now() from polls po
        where po.post_id = ${vote.postId} and po.expires_at > now()
       on conflict do nothing
       returning post_id
     ), upd as (
       update polls po
          set voters_count = po.voters_count + 1,
              votes_counts = (select jsonb_agg(t.c::int + case when (t.i - 1)::int in (
                                 select jsonb_array_elements_text(${choices}::jsonb)::int) then 1 else 0 end
                               order by t.i)
                                from jsonb_array_elements_text(po.votes_counts) with ordinality t(c, i))
         from ins
        where po.post_id = ins.post_id
       returning po.post_id
     )
     select exists (select 1 from upd) as voted,
            exists (select 1 from polls where post_id = ${vote.postId} and expires_at > now()) as open`,
  );
  if (row?.voted) return 'voted';
  return row?.open ? 'already' : 'ended';
}

/** The poll of `postId` as `viewerId` sees it (the caller checked they may see the post). */
export async function findPoll(
  em: EntityManager,
  postId: string,
  viewerId: string | null,
): Promise<PollDto | null> {
  const [row] = await preparedRows<{ poll: PollRow | null }>(
    em,
    sql`select ${pollValue(viewerId)} as poll from posts p where p.id = ${postId}`,
  );
  return toPollDto(row?.poll);
}

/** Ended polls whose end was not announced yet, the longest ended first (the sweep). */
export async function findUnannouncedEndedPolls(em: EntityManager, limit: number): Promise<string[]> {
  const found = await rows<{ post_id: string }>(
    em,
    sql`select post_id from polls where ended_notified_at is null and expires_at <= now()
         order by expires_at limit ${limit}`,
  );
  return found.map((r) => r.post_id);
}

/**
 * Claims the announcement of `postId`'s end (once: the update finds it unclaimed only once, a
 * concurrent claim waits for this one's commit and then finds it claimed), in the caller's
 * transaction. False when it is not over, already announced, or gone.
 */
export async function claimPollEnd(em: EntityManager, postId: string): Promise<boolean> {
  const claimed = await rows<{ post_id: string }>(
    em,
    sql`update polls set ended_notified_at = now()
         where post_id = ${postId} and ended_notified_at is null and expires_at <= now()
        returning post_id`,
  );
  return claimed.length > 0;
}

/**
 * The 'poll_ended' notifications of `postId`: to its author (from themself) and to each voter, but
 * not when the post is out of sight (removed, its author suspended), nor to a voter blocked either
 * way with the author. Answers the recipients.
 */
export async function insertPollEndedNotifications(em: EntityManager, postId: string): Promise<string[]> {
  const inserted = await rows<{ recipient_id: string }>(
    em,
    sql`insert into notifications (id, recipient_id, actor_id, type, post_id, created_at, note)
     select gen_random_uuid(), r.user_id, p.author_id, 'poll_ended', p.id, now(),
            case when r.user_id = p.author_id then ${POLL_ENDED_OWN} else ${POLL_ENDED_VOTED} end
       from posts p
       join users u on u.id = p.author_id
       cross join lateral (
         select p.author_id as user_id
         union
         select pv.user_id from poll_votes pv where pv.post_id = p.id
       ) r
      where p.id = ${postId} and p.removed_at is null and ${shownMember('u')}
        and ${notBlocked(column('r.user_id'), column('p.author_id'))}
     on conflict do nothing
     returning recipient_id`,
  );
  return inserted.map((r) => r.recipient_id);
}

/** What a 'poll_ended' notification says (its `note`): to the author, and to a voter. */
export const POLL_ENDED_OWN = 'Your poll has ended';
export const POLL_ENDED_VOTED = 'A poll you voted in has ended';

/** Moves a poll's end (tests: a poll that ended, without waiting for it). */
export async function setPollExpiry(em: EntityManager, postId: string, expiresAt: Date): Promise<void> {
  await rows(em, sql`update polls set expires_at = ${expiresAt} where post_id = ${postId}`);
}
