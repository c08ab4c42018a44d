/**
 * The composer's poll (composer.tsx's "Add poll"): 2 to 4 options (add and remove), a duration
 * and "Multiple choice". The composer holds the state and sends it as the post's `poll`, checked
 * by the shared schema (createPostInput's `poll`); `error` is what the schema says of it.
 */

import { POLL_OPTION_MAX_LENGTH, POLL_OPTIONS_MAX, POLL_OPTIONS_MIN } from '@cubes/api/rules';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Plus, X } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../components/ui/button';

export interface DraftPoll {
  options: string[];
  expiresInMinutes: number;
  multiple: boolean;
}

/** Labels translated where they are shown (`i18n._(label)`). */
export const POLL_DURATIONS = [
  { minutes: 5, label: msg`5 minutes` },
  { minutes: 60, label: msg`1 hour` },
  { minutes: 24 * 60, label: msg`1 day` },
  { minutes: 3 * 24 * 60, label: msg`3 days` },
  { minutes: 7 * 24 * 60, label: msg`7 days` },
] as const;

export function ComposerPoll({
  poll,
  onChange,
  onRemove,
  disabled,
  error,
}: {
  poll: DraftPoll;
  onChange: (poll: DraftPoll) => void;
  onRemove: () => void;
  disabled?: boolean;
  error?: string | null;
}) {
  const id = useId();
  const { i18n, t } = useLingui();
  const setOption = (index: number, value: string) =>
    onChange({ ...poll, options: poll.options.map((o, i) => (i === index ? value : o)) });
  return (
    <fieldset
      className="grid min-w-0 gap-2 rounded-md border p-3"
      disabled={disabled}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="px-1 text-sm font-medium">
        <Trans>Poll</Trans>
      </legend>
      {poll.options.map((option, i) => {
        const number = i + 1;
        return (
          <div key={i} className="flex items-center gap-2">
            <label htmlFor={`${id}-option-${i}`} className="sr-only">
              <Trans>Option {number}</Trans>
            </label>
            <input
              id={`${id}-option-${i}`}
              value={option}
              onChange={(e) => setOption(i, e.target.value)}
              placeholder={t`Option ${number}`}
              maxLength={POLL_OPTION_MAX_LENGTH * 2}
              className="h-9 min-w-0 flex-1 rounded-md border bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring"
            />
            {poll.options.length > POLL_OPTIONS_MIN ? (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                aria-label={t`Remove option ${number}`}
                onClick={() => onChange({ ...poll, options: poll.options.filter((_, j) => j !== i) })}
              >
                <X aria-hidden="true" />
              </Button>
            ) : null}
          </div>
        );
      })}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {poll.options.length < POLL_OPTIONS_MAX ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => onChange({ ...poll, options: [...poll.options, ''] })}
          >
            <Plus aria-hidden="true" />
            <Trans>Add option</Trans>
          </Button>
        ) : null}
        <label htmlFor={`${id}-duration`} className="flex items-center gap-2 text-sm">
          <Trans>Duration</Trans>
          <select
            id={`${id}-duration`}
            value={poll.expiresInMinutes}
            onChange={(e) => onChange({ ...poll, expiresInMinutes: Number(e.target.value) })}
            className="h-9 rounded-md border bg-background px-2 text-sm focus-visible:outline-2 focus-visible:outline-ring"
          >
            {POLL_DURATIONS.map((d) => (
              <option key={d.minutes} value={d.minutes}>
                {i18n._(d.label)}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${id}-multiple`} className="flex items-center gap-2 text-sm">
          <input
            id={`${id}-multiple`}
            type="checkbox"
            checked={poll.multiple}
            onChange={(e) => onChange({ ...poll, multiple: e.target.checked })}
            className="size-4 accent-[var(--primary)]"
          />
          <Trans>Multiple choice</Trans>
        </label>
        <Button type="button" variant="ghost" size="sm" className="ms-auto" onClick={onRemove}>
          <Trans>Remove poll</Trans>
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
