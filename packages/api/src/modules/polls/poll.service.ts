/**
 * Polls: a post's poll is written with the post (createPost calls createPoll in its transaction),
 * members vote once while it is open, and its end is announced once to its voters and its author
 * by the job queue (a job queued for its end, and a sweep for any job that was lost).
 *
 * Results: the counts per option reach only those entitled to them (the author, voters, everyone
 * once it ended: poll.serializer.ts). A vote is told to open feeds through the posts' live
 * `postChanges` topic (kind 'poll'): each viewer loads the post again and sees what they may.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, publishEvent } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, conflict, gone, notFound, requireUuid } from '../../errors.js';
import type { EventBus } from '../../events/event-bus.js';
import { JOBS, type PollEndJob } from '../../jobs/jobs.names.js';
import {
  claimPollEnd,
  findPoll,
  findUnannouncedEndedPolls,
  findVoteTarget,
  insertPoll,
  insertPollEndedNotifications,
  insertVote,
} from './poll.repository.js';
import type { PollDto, PollInput, VoteInput, VoteResult } from './poll.schema.js';

export const POLL_NOT_FOUND = ERROR_REASONS.POLL_NOT_FOUND;
export const POLL_ENDED = ERROR_REASONS.POLL_ENDED;
export const ALREADY_VOTED = ERROR_REASONS.ALREADY_VOTED;
export const ONE_CHOICE_ONLY = ERROR_REASONS.ONE_CHOICE_ONLY;

/** The new post `postId`'s poll, in the post's transaction (`em`); answered as its author sees it. */
export function createPoll(em: EntityManager, postId: string, input: PollInput, now: Date): Promise<PollDto> {
  return insertPoll(em, {
    postId,
    options: input.options,
    multiple: input.multiple ?? false,
    expiresAt: new Date(now.getTime() + input.expiresInMinutes * 60_000),
  });
}

/** After the post committed: its end is a job that starts then (the sweep covers a lost one). */
export async function queuePollEnd(ctx: AuthedContext, postId: string, poll: PollDto): Promise<void> {
  if (!ctx.jobs) return;
  const seconds = Math.max(1, Math.ceil((Date.parse(poll.expiresAt) - ctx.now().getTime()) / 1000));
  try {
    await ctx.jobs.send(JOBS.pollEnd, { postId } satisfies PollEndJob, { startAfterSeconds: seconds });
  } catch (error) {
    ctx.logError?.('poll end not queued (the sweep announces it)', error);
  }
}

/**
 * One vote per member and poll: 404 when there is no poll or the post is hidden from the voter
 * (removed, its author suspended, a block either way), 410 once it ended, 409 after their vote,
 * 400 for a choice the poll does not have, or several in a single-choice poll.
 */
export async function vote(ctx: AuthedContext, input: VoteInput): Promise<VoteResult> {
  const postId = requireUuid(input.postId, POLL_NOT_FOUND);
  const userId = ctx.session.user.id;
  const target = await findVoteTarget(ctx.em, postId, userId);
  if (!target) throw notFound(POLL_NOT_FOUND);
  if (target.expired) throw gone(POLL_ENDED);
  if (target.voted) throw conflict(ALREADY_VOTED);
  const outside = input.choices.find((c) => c >= target.options_count);
  if (outside !== undefined) {
    throw badRequest(
      `This poll has ${target.options_count} options: choose from 0 to ${target.options_count - 1}`,
    );
  }
  if (!target.multiple && input.choices.length > 1) throw badRequest(ONE_CHOICE_ONLY);
  const outcome = await insertVote(ctx.em, { postId, userId, choices: input.choices });
  if (outcome === 'ended') throw gone(POLL_ENDED);
  if (outcome === 'already') throw conflict(ALREADY_VOTED);
  const poll = await findPoll(ctx.em, postId, userId);
  if (!poll) throw notFound(POLL_NOT_FOUND); // deleted in the meantime
  const authorId = await postAuthor(ctx.em, postId);
  if (authorId) publishEvent(ctx, 'postChanges', { postId, kind: 'poll', authorId, hidden: false });
  return { poll };
}

async function postAuthor(em: EntityManager, postId: string): Promise<string | null> {
  const [row] = await em.execute<{ author_id: string }[]>('select author_id from posts where id = ?', [
    postId,
  ]);
  return row?.author_id ?? null;
}

export interface PollEndDeps {
  fork: () => EntityManager;
  bus: EventBus;
}

/**
 * Announces `postId`'s end if it ended and nobody did yet: the claim and the notifications commit
 * together, so however many runners try, one writes them. Then the bells, and open feeds, which
 * load the poll again (its results are everyone's now). True when this call announced it.
 */
export async function announcePollEnd(deps: PollEndDeps, postId: string): Promise<boolean> {
  const em = deps.fork();
  // The events go with the transaction (delivered at its commit, to every instance's caches and
  // listeners, this one's included): the job has no request whose caches could hear them first.
  return em.transactional(async (tx) => {
    if (!(await claimPollEnd(tx, postId))) return false;
    const recipients = await insertPollEndedNotifications(tx, postId);
    for (const recipientId of recipients) await deps.bus.publish('notifications', { recipientId }, tx);
    const authorId = await postAuthor(tx, postId);
    if (authorId)
      await deps.bus.publish('postChanges', { postId, kind: 'poll', authorId, hidden: false }, tx);
    return true;
  });
}

/** How many ended polls one sweep announces at most. */
export const POLL_SWEEP_BATCH = 100;

/** The sweep: announces polls that ended and were not announced (their job was lost). */
export async function sweepEndedPolls(deps: PollEndDeps): Promise<number> {
  const ids = await findUnannouncedEndedPolls(deps.fork(), POLL_SWEEP_BATCH);
  let n = 0;
  for (const postId of ids) if (await announcePollEnd(deps, postId)) n++;
  return n;
}
