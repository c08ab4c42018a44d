/**
 * One open conversation on the Chat page: the other member's name, the messages (own bubbles
 * apart from theirs, grouped by sender with one time per group, "Seen" once under the newest own
 * message read: message-groups.ts; links, @mentions and #tags linked and readable on either
 * bubble; older pages on demand), the typing line and the input that sends on Enter and makes a
 * new line on Shift+Enter. Incoming messages
 * shown while the page is on screen are marked read; polling runs only while the socket is down.
 */
import { isDeletedUsername, TYPING_REFRESH_MS } from '@cubes/api/schemas';
import { ArrowDown, ArrowLeft, RotateCw, Send } from 'lucide-react';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { RelativeTime } from '../../components/relative-time';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { UserAvatar } from '../../components/user-avatar';
import { LINK_ON_SURFACE_CLASS, UserText } from '../../components/user-text';
import { cn } from '../../lib/cn';
import { useAuth } from '../auth/auth-provider';
import { ReportButton } from '../reports/report-button';
import { useMarkThreadRead, usePeerQuery, useThreadQuery, useTypingMutation } from './chat-queries';
import { placeMessages } from './message-groups';
import { useIsTyping, useMessagesConnected } from './messages-live';
import { useOutbox } from './use-outbox';
import { useStickToBottom } from './use-stick-to-bottom';

export const THREAD_POLL_MS = 3_000;
export const FETCH_FAILED = 'Failed to fetch messages';

function subscribeVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

/** Whether the page is on screen (not a background tab, not minimised). */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState !== 'hidden',
    () => true,
  );
}

export function ChatThread({ peerId, onBack }: { peerId: string; onBack: () => void }) {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const connected = useMessagesConnected();
  const typing = useIsTyping(peerId);
  const peer = usePeerQuery(peerId);
  const thread = useThreadQuery(peerId, connected, THREAD_POLL_MS);
  const [draft, setDraft] = useState('');
  const lastTypingSent = useRef(0);

  // Newest page first in the cache; shown oldest first.
  const messages = useMemo(
    () => (thread.data ? [...thread.data.pages].reverse().flatMap((page) => page.items) : []),
    [thread.data],
  );

  const markThreadRead = useMarkThreadRead(peerId);
  const typingCall = useTypingMutation();

  // An incoming message shown in the open thread, while the page is on screen, is read: tell the
  // server (and so the sender). Loading the thread reads only; a tab in the background marks
  // nothing until it is looked at again.
  const pageVisible = usePageVisible();
  const unreadIncoming = messages.some((m) => m.senderId === peerId && m.readAt === null);
  useEffect(() => {
    if (unreadIncoming && !thread.isFetching && pageVisible) markThreadRead();
  }, [unreadIncoming, thread.isFetching, pageVisible, markThreadRead]);

  const outbox = useOutbox(peerId, messages);
  const { echoes, sending } = outbox;
  const submit = () => {
    const content = draft.trim();
    if (!content || sending) return;
    setDraft('');
    if (lastTypingSent.current) {
      lastTypingSent.current = 0;
      typingCall.mutate({ userId: peerId, active: false });
    }
    outbox.send(content);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const onDraft = (value: string) => {
    setDraft(value);
    const now = Date.now();
    if (value.trim() && now - lastTypingSent.current >= TYPING_REFRESH_MS) {
      lastTypingSent.current = now;
      typingCall.mutate({ userId: peerId, active: true });
    } else if (!value.trim() && lastTypingSent.current) {
      lastTypingSent.current = 0;
      typingCall.mutate({ userId: peerId, active: false });
    }
  };

  // Follow the newest message unless the reader scrolled up; their own always shows.
  const lastKey = `${messages.at(-1)?.id ?? ''}.${echoes.length}`;
  const lastMine = echoes.length > 0 || messages.at(-1)?.senderId === me;
  const scroll = useStickToBottom<HTMLDivElement>(lastKey, lastMine);

  const placed = useMemo(() => placeMessages(messages, me, echoes.length > 0), [messages, me, echoes.length]);
  const name = peer.data?.displayName ?? '';
  const canMessage = peer.data?.canMessage ?? true;

  return (
    <section aria-label="Thread" className="flex min-h-0 flex-col overflow-hidden rounded-xl border bg-card">
      <header className="flex items-center gap-3 border-b px-3 py-2.5 md:px-4">
        <Button variant="ghost" size="icon" className="md:hidden" onClick={onBack} aria-label="Back">
          <ArrowLeft aria-hidden="true" />
        </Button>
        {peer.data ? (
          <>
            <UserAvatar user={peer.data} size={36} decorative />
            <div className="grid min-w-0">
              <h2 className="truncate font-semibold">{peer.data.displayName}</h2>
              {isDeletedUsername(peer.data.username) ? null : (
                <span className="truncate text-xs text-muted-foreground">@{peer.data.username}</span>
              )}
            </div>
          </>
        ) : peer.isError ? (
          <h2 className="font-semibold">Unknown member</h2>
        ) : (
          <Spinner />
        )}
      </header>
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
              {messages.length === 0 && echoes.length === 0 ? (
                <p className="py-10 text-center text-sm text-muted-foreground">
                  No messages yet{name ? ` with ${name}` : ''}. Say hello!
                </p>
              ) : null}
              <ol aria-label="Messages" className="grid">
                {placed.map(({ message: m, mine, groupStart, groupEnd, receipt }) => (
                  <Bubble
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
                  <Bubble
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
                          onClick={() => outbox.retry(p)}
                        >
                          <RotateCw aria-hidden="true" /> Retry
                        </Button>
                      </span>
                    )}
                  </Bubble>
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
      <p aria-live="polite" className="h-5 px-4 text-xs text-muted-foreground">
        {typing && name ? `${name} is typing...` : ''}
      </p>
      {canMessage ? (
        <form
          className="flex items-end gap-2 border-t p-3"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Textarea
            aria-label="Message"
            placeholder="Type a message..."
            rows={1}
            maxLength={2000}
            value={draft}
            onChange={(event) => onDraft(event.target.value)}
            onKeyDown={onKeyDown}
            className="max-h-40 min-h-10 resize-none field-sizing-content"
          />
          <Button
            type="submit"
            size="icon"
            aria-label="Send"
            disabled={!draft.trim() || sending}
            className="size-10 shrink-0"
          >
            {sending ? <Spinner /> : <Send aria-hidden="true" />}
          </Button>
        </form>
      ) : (
        <p className="border-t p-4 text-center text-sm text-muted-foreground">
          {name || 'This member'} does not accept messages from you.
        </p>
      )}
    </section>
  );
}

/**
 * "Sent" or "Seen" beside the time. A hidden comma keeps the two apart for a screen reader, which
 * otherwise reads the line as one word ("just nowSeen").
 */
function Receipt({ seen }: { seen: boolean }) {
  return (
    <span data-testid="read-receipt">
      <span className="sr-only">, </span>
      <span>{seen ? 'Seen' : 'Sent'}</span>
    </span>
  );
}

/**
 * One message. Its links, @mentions and #tags are links: on an own bubble (`bg-primary`) in the
 * bubble's own text colour and underlined, since the app's link colour is the bubble's colour.
 * The line under it holds the group's time (under a group's last message), the receipt, and
 * whatever `children` add (an echo's state); `aside` sits beside the bubble (Report).
 */
function Bubble({
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
  aside?: React.ReactNode;
  children?: React.ReactNode;
}) {
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
            mine ? !groupStart && 'rounded-tr-md' : !groupStart && 'rounded-tl-md',
            mine ? !groupEnd && 'rounded-br-md' : !groupEnd && 'rounded-bl-md',
            groupEnd && (mine ? 'rounded-br-md' : 'rounded-bl-md'),
            pending && 'opacity-70',
          )}
        >
          <span className="sr-only">{mine ? 'You: ' : ''}</span>
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
