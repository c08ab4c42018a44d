/**
 * The open conversation's messages: loading, failed (with Retry) and empty states, older pages on
 * demand, the bubbles grouped by sender (message-groups.ts) with Report beside the peer's, the
 * echoes of what is being sent ("Sending...", or "Failed to send" with Retry), and "New messages"
 * when the newest arrived while the reader was scrolled up.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDown, RotateCw } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { ReportButton } from '../reports/report-button';
import { MessageBubble } from './message-bubble';
import type { ChatThreadState } from './use-chat-thread';

/** Translated where it is shown (`i18n._(FETCH_FAILED)`). */
export const FETCH_FAILED: MessageDescriptor = msg`Failed to fetch messages`;

type Props = Pick<ChatThreadState, 'thread' | 'name' | 'empty' | 'placed' | 'echoes' | 'retry' | 'scroll'>;

export function MessageList({ thread, name, empty, placed, echoes, retry, scroll }: Props) {
  const { i18n, t } = useLingui();
  const subject = name ? t`Message from ${name}` : t`Message from this member`;
  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scroll.ref}
        onScroll={scroll.onScroll}
        className="h-full overflow-y-auto px-3 py-4 md:px-4"
        data-testid="thread-scroller"
      >
        {thread.isPending ? (
          <p
            role="status"
            className="flex items-center justify-center gap-2 py-10 text-sm text-muted-foreground"
          >
            <Spinner /> <Trans>Loading messages...</Trans>
          </p>
        ) : thread.isError ? (
          <div role="alert" className="grid justify-items-center gap-2 py-10 text-sm">
            <p className="text-muted-foreground">{i18n._(FETCH_FAILED)}</p>
            <Button variant="outline" size="sm" onClick={() => void thread.refetch()}>
              <Trans>Retry</Trans>
            </Button>
          </div>
        ) : (
          <>
            {thread.hasNextPage ? (
              <div className="mb-3 flex justify-center">
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={thread.isFetchingNextPage}
                  onClick={() => void thread.fetchNextPage()}
                >
                  {thread.isFetchingNextPage ? <Spinner /> : null}
                  <Trans>Load older messages</Trans>
                </Button>
              </div>
            ) : null}
            {empty ? (
              <p className="py-10 text-center text-sm text-muted-foreground">
                {name ? (
                  <Trans>No messages yet with {name}. Say hello!</Trans>
                ) : (
                  <Trans>No messages yet. Say hello!</Trans>
                )}
              </p>
            ) : null}
            <ol aria-label={t`Messages`} className="grid">
              {placed.map(({ message: m, mine, groupStart, groupEnd, receipt }) => (
                <MessageBubble
                  key={m.id}
                  mine={mine}
                  text={m.content}
                  time={groupEnd ? m.createdAt : undefined}
                  groupStart={groupStart}
                  groupEnd={groupEnd}
                  receipt={receipt}
                  aside={
                    mine ? null : (
                      <ReportButton
                        compact
                        className="size-6 [&_svg]:size-3.5"
                        targetType="message"
                        targetId={m.id}
                        ownerId={m.senderId}
                        subject={subject}
                      />
                    )
                  }
                />
              ))}
              {echoes.map((p, i) => (
                <MessageBubble
                  key={p.clientId}
                  mine
                  text={p.content}
                  pending
                  groupStart={i === 0 && placed.at(-1)?.mine !== true}
                  groupEnd
                >
                  {p.status === 'sending' ? (
                    t`Sending...`
                  ) : (
                    <span className="flex items-center gap-2 text-destructive">
                      <Trans>Failed to send</Trans>
                      <Button
                        variant="outline"
                        size="sm"
                        className="h-6 px-2 text-xs"
                        onClick={() => retry(p)}
                      >
                        <RotateCw aria-hidden="true" /> <Trans>Retry</Trans>
                      </Button>
                    </span>
                  )}
                </MessageBubble>
              ))}
            </ol>
          </>
        )}
      </div>
      {scroll.newBelow ? (
        <Button
          size="sm"
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-lg"
          onClick={scroll.toBottom}
        >
          <ArrowDown aria-hidden="true" /> <Trans>New messages</Trans>
        </Button>
      ) : null}
    </div>
  );
}
