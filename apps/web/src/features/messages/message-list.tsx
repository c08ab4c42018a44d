/**
 * The open conversation's messages: loading, failed (with Retry) and empty states, older pages on
 * demand, the bubbles grouped by sender (message-groups.ts) with Report beside the peer's, the
 * echoes of what is being sent ("Sending...", or "Failed to send" with Retry), and "New messages"
 * when the newest arrived while the reader was scrolled up.
 */
import { ArrowDown, RotateCw } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { ReportButton } from '../reports/report-button';
import { MessageBubble } from './message-bubble';
import type { ChatThreadState } from './use-chat-thread';

export const FETCH_FAILED = 'Failed to fetch messages';

type Props = Pick<ChatThreadState, 'thread' | 'name' | 'empty' | 'placed' | 'echoes' | 'retry' | 'scroll'>;

export function MessageList({ thread, name, empty, placed, echoes, retry, scroll }: Props) {
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
            <Spinner /> Loading messages...
          </p>
        ) : thread.isError ? (
          <div role="alert" className="grid justify-items-center gap-2 py-10 text-sm">
            <p className="text-muted-foreground">{FETCH_FAILED}</p>
            <Button variant="outline" size="sm" onClick={() => void thread.refetch()}>
              Retry
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
                  Load older messages
                </Button>
              </div>
            ) : null}
            {empty ? (
              <p className="py-10 text-center text-sm text-muted-foreground">
                No messages yet{name ? ` with ${name}` : ''}. Say hello!
              </p>
            ) : null}
            <ol aria-label="Messages" className="grid">
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
                        subject={`Message from ${name || 'this member'}`}
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
                    'Sending...'
                  ) : (
                    <span className="flex items-center gap-2 text-destructive">
                      Failed to send
                      <Button
                        variant="outline"
                        size="sm"
                        className="h-6 px-2 text-xs"
                        onClick={() => retry(p)}
                      >
                        <RotateCw aria-hidden="true" /> Retry
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
          <ArrowDown aria-hidden="true" /> New messages
        </Button>
      ) : null}
    </div>
  );
}
