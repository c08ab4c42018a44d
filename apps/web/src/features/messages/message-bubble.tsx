/**
 * One message of a conversation, as a bubble: own messages at the end (the right; the left in a
 * right-to-left language) in the primary colour, the peer's at the start; the corners join a
 * sender's run of messages (message-groups.ts).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { RelativeTime } from '../../components/relative-time';
import { LINK_ON_SURFACE_CLASS, UserText } from '../../components/user-text';
import { cn } from '../../lib/cn';

/**
 * "Sent" or "Seen" beside the time. A hidden comma keeps the two apart for a screen reader, which
 * otherwise reads the line as one word ("just nowSeen").
 */
function Receipt({ seen }: { seen: boolean }) {
  return (
    <span data-testid="read-receipt">
      <span className="sr-only">, </span>
      <span>{seen ? <Trans>Seen</Trans> : <Trans>Sent</Trans>}</span>
    </span>
  );
}

/**
 * One message. Its links, @mentions and #tags are links: on an own bubble (`bg-primary`) in the
 * bubble's own text colour and underlined, since the app's link colour is the bubble's colour.
 * The line under it holds the group's time (under a group's last message), the receipt, and
 * whatever `children` add (an echo's state); `aside` sits beside the bubble (Report).
 */
export function MessageBubble({
  mine,
  text,
  time,
  pending = false,
  groupStart,
  groupEnd,
  receipt = null,
  aside,
  children,
}: {
  mine: boolean;
  text: string;
  time?: Date;
  pending?: boolean;
  groupStart: boolean;
  groupEnd: boolean;
  receipt?: 'Seen' | 'Sent' | null;
  aside?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useLingui();
  const meta = Boolean(time || receipt || children);
  return (
    <li
      className={cn(
        'group/bubble flex min-w-0 flex-col gap-0.5',
        mine ? 'items-end' : 'items-start',
        groupStart ? 'mt-3 first:mt-0' : 'mt-0.5',
      )}
      data-mine={mine}
      data-group-end={groupEnd || undefined}
    >
      <div
        className={cn('flex max-w-[85%] min-w-0 items-end gap-1 md:max-w-[70%]', mine && 'flex-row-reverse')}
      >
        <div
          className={cn(
            'min-w-0 rounded-2xl px-3.5 py-2 text-sm',
            mine ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground',
            mine ? !groupStart && 'rounded-se-md' : !groupStart && 'rounded-ss-md',
            mine ? !groupEnd && 'rounded-ee-md' : !groupEnd && 'rounded-es-md',
            groupEnd && (mine ? 'rounded-ee-md' : 'rounded-es-md'),
            pending && 'opacity-70',
          )}
        >
          <span className="sr-only">{mine ? `${t`You:`} ` : ''}</span>
          <UserText
            text={text}
            mentions="any"
            linkClassName={
              mine ? LINK_ON_SURFACE_CLASS : 'font-medium text-primary underline underline-offset-2'
            }
          />
        </div>
        {aside ? <div className="shrink-0">{aside}</div> : null}
      </div>
      {meta ? (
        <span className="flex items-center gap-2 px-1 text-[11px] text-muted-foreground">
          {time ? <RelativeTime date={time} /> : null}
          {receipt ? <Receipt seen={receipt === 'Seen'} /> : null}
          {children}
        </span>
      ) : null}
    </li>
  );
}
