/**
 * A post's poll (in the post card, so on the feed and on the post's page): before one votes,
 * its options as radio buttons (or checkboxes in a multiple-choice poll) in a fieldset, and Vote;
 * after voting, once it ended, and always for its author, the results: a bar per option with its
 * percentage, one's own choices marked with a check and the words "your choice" (not by colour
 * alone). Below, "N votes · ends in X" or "· ended". Long option text wraps.
 */
import { i18n as globalI18n, type I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Check } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useNow } from '../../components/relative-time';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import type { Post } from '../posts/post-cache';
import { useVote } from './queries';

export type PollData = NonNullable<Post['poll']>;

const MINUTE = 60_000;

/** 'ends in 5 minutes', 'ends in 3 hours', 'ends in 2 days'; 'ended' once past. */
export function endsLabel(expiresAt: string, expired: boolean, now: number, i18n: I18n = globalI18n): string {
  const left = Date.parse(expiresAt) - now;
  if (expired || left <= 0) return i18n._(msg`ended`);
  if (left < MINUTE) return i18n._(msg`ends in less than a minute`);
  const minutes = Math.round(left / MINUTE);
  if (minutes < 60) return i18n._(msg`ends in ${plural(minutes, { one: '# minute', other: '# minutes' })}`);
  const hours = Math.round(minutes / 60);
  if (hours < 24) return i18n._(msg`ends in ${plural(hours, { one: '# hour', other: '# hours' })}`);
  const days = Math.round(hours / 24);
  return i18n._(msg`ends in ${plural(days, { one: '# day', other: '# days' })}`);
}

export function Poll({ postId, poll }: { postId: string; poll: PollData }) {
  const now = useNow();
  const ended = poll.expired || Date.parse(poll.expiresAt) <= now;
  const voted = poll.ownChoices.length > 0;
  const resultsShown = poll.options.every((o) => o.votesCount !== null);
  const { i18n, t } = useLingui();
  const voters = poll.votersCount;
  const votes = t`${plural(voters, { one: '# vote', other: '# votes' })}`;
  const footer = `${votes} · ${endsLabel(poll.expiresAt, poll.expired, now, i18n)}`;
  return (
    <div className="grid gap-2" data-testid="poll">
      {voted || ended || resultsShown ? (
        <PollResults poll={poll} />
      ) : (
        <PollForm postId={postId} poll={poll} />
      )}
      <p className="text-sm text-muted-foreground">
        {footer}
        {!resultsShown && !ended ? (
          <span>
            {' · '}
            <Trans>Results show once you vote</Trans>
          </span>
        ) : null}
      </p>
    </div>
  );
}

function PollForm({ postId, poll }: { postId: string; poll: PollData }) {
  const [chosen, setChosen] = useState<number[]>([]);
  const { vote, isPending } = useVote(postId);
  const name = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0 || isPending) return;
    vote(chosen);
  };
  const toggle = (index: number, on: boolean) =>
    setChosen((now) =>
      poll.multiple ? (on ? [...now, index].sort() : now.filter((i) => i !== index)) : on ? [index] : [],
    );
  return (
    <form onSubmit={submit} className="grid gap-2">
      <fieldset className="grid min-w-0 gap-1.5" disabled={isPending}>
        <legend className="mb-1 text-sm font-medium">
          {poll.multiple ? <Trans>Poll: choose one or more</Trans> : <Trans>Poll: choose one</Trans>}
        </legend>
        {poll.options.map((option, i) => {
          const id = `${name}-${i}`;
          return (
            <label
              key={id}
              htmlFor={id}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2 text-sm transition-colors',
                'hover:bg-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
                chosen.includes(i) && 'border-primary bg-primary/5',
              )}
            >
              <input
                id={id}
                type={poll.multiple ? 'checkbox' : 'radio'}
                name={name}
                value={i}
                checked={chosen.includes(i)}
                onChange={(e) => toggle(i, e.target.checked)}
                className="mt-0.5 size-4 shrink-0 accent-[var(--primary)]"
              />
              <span className="user-text min-w-0 break-words [overflow-wrap:anywhere]">{option.text}</span>
            </label>
          );
        })}
      </fieldset>
      <div>
        <Button type="submit" size="sm" disabled={chosen.length === 0 || isPending}>
          {isPending ? <Spinner /> : null}
          <Trans>Vote</Trans>
        </Button>
      </div>
    </form>
  );
}

function PollResults({ poll }: { poll: PollData }) {
  const total = poll.options.reduce((sum, o) => sum + (o.votesCount ?? 0), 0);
  const { i18n, t } = useLingui();
  return (
    <ul className="grid gap-1.5" aria-label={t`Poll results`}>
      {poll.options.map((option, i) => {
        const count = option.votesCount ?? 0;
        const percent = total === 0 ? 0 : Math.round((count / total) * 100);
        const mine = poll.ownChoices.includes(i);
        return (
          <li key={i} className="relative overflow-hidden rounded-md border text-sm">
            <span
              aria-hidden="true"
              className={cn('absolute inset-y-0 start-0', mine ? 'bg-primary/20' : 'bg-muted')}
              style={{ width: `${percent}%` }}
            />
            <span className="relative flex items-start gap-2 px-3 py-2">
              <span className="min-w-0 flex-1 break-words [overflow-wrap:anywhere]">
                <span className="user-text">{option.text}</span>
                {mine ? (
                  <span className="ms-1.5 inline-flex items-center gap-0.5 whitespace-nowrap font-semibold text-foreground">
                    <Check aria-hidden="true" className="size-3.5 text-primary" />
                    <Trans>your choice</Trans>
                  </span>
                ) : null}
              </span>
              <span className="shrink-0 font-semibold tabular-nums">
                {i18n.number(percent / 100, { style: 'percent' })}
                <span className="sr-only">
                  {', '}
                  <Plural value={count} one="# vote" other="# votes" />
                </span>
              </span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
