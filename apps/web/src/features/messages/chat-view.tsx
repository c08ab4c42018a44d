/**
 * The Chat page: the conversation list (avatar, name, last message, time, unread badge) and the
 * open thread (own bubbles apart from the other person's), with an input that sends on Enter and
 * makes a new line on Shift+Enter. `/chat?user={id}` opens or starts a conversation; without it the
 * newest conversation opens by itself (from md up; on a phone the list and the thread are two
 * steps with a Back button). Live updates come from MessagesLive; the polling here runs only while
 * the socket is down.
 */
import { isDeletedUsername, TYPING_REFRESH_MS } from '@cubes/api/schemas';
import { ArrowDown, ArrowLeft, MessageCircle, RotateCw, Send } from 'lucide-react';
import {
  type KeyboardEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useSearchParams } from 'react-router-dom';
import { RelativeTime } from '../../components/relative-time';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { UserAvatar } from '../../components/user-avatar';
import { UserText } from '../../components/user-text';
import { cn } from '../../lib/cn';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { ReportButton } from '../reports/report-button';
import {
  type CachedThread,
  type DirectMessage,
  useIsTyping,
  useMessagesConnected,
  withMessage,
} from './messages-live';

export const CONVERSATIONS_POLL_MS = 5_000;
export const THREAD_POLL_MS = 3_000;
export const FETCH_FAILED = 'Failed to fetch messages';

/** From md up the list and the thread sit side by side, and the newest conversation opens itself. */
function useWideScreen(): boolean {
  const query = '(min-width: 768px)';
  const [wide, setWide] = useState(
    () => typeof window.matchMedia !== 'function' || window.matchMedia(query).matches,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const onChange = () => setWide(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return wide;
}

export function ChatView() {
  const [params, setParams] = useSearchParams();
  const wide = useWideScreen();
  const connected = useMessagesConnected();
  const conversations = trpc.messages.conversations.useQuery(undefined, {
    refetchInterval: connected ? false : CONVERSATIONS_POLL_MS,
  });
  const chosen = params.get('user')?.toLowerCase() ?? null;
  const items = conversations.data ?? [];
  const selected = chosen ?? (wide ? (items[0]?.userId ?? null) : null);

  const open = (userId: string | null) => setParams(userId ? { user: userId } : {}, { replace: !userId });

  return (
    <div className="grid h-[calc(100dvh-11.5rem-env(safe-area-inset-bottom))] min-h-80 grid-cols-1 md:h-[calc(100dvh-8.5rem)] md:grid-cols-[20rem_minmax(0,1fr)] md:gap-4">
      {/* On a phone the list and the thread are two steps: one shows at a time. */}
      <section
        aria-label="Conversations"
        hidden={Boolean(selected) && !wide}
        className="flex min-h-0 flex-col overflow-hidden rounded-xl border bg-card [&[hidden]]:hidden"
      >
        <h1 className="border-b px-4 py-3 text-lg font-semibold">Chat</h1>
        <div className="min-h-0 flex-1 overflow-y-auto">
          {conversations.isPending ? (
            <p
              role="status"
              className="flex items-center justify-center gap-2 px-4 py-10 text-sm text-muted-foreground"
            >
              <Spinner /> Loading conversations...
            </p>
          ) : conversations.isError ? (
            <div role="alert" className="grid justify-items-center gap-2 px-4 py-10 text-sm">
              <p className="text-muted-foreground">{FETCH_FAILED}</p>
              <Button variant="outline" size="sm" onClick={() => void conversations.refetch()}>
                Retry
              </Button>
            </div>
          ) : items.length === 0 ? (
            <div className="grid justify-items-center gap-2 px-6 py-10 text-center text-sm text-muted-foreground">
              <MessageCircle aria-hidden="true" className="size-6 opacity-60" />
              <p>No conversations yet</p>
              <p>Open a member’s profile and press Message to start one.</p>
            </div>
          ) : (
            <ul className="divide-y">
              {items.map((c) => (
                <li key={c.userId}>
                  <button
                    type="button"
                    onClick={() => open(c.userId)}
                    aria-current={c.userId === selected ? 'true' : undefined}
                    className={cn(
                      'flex w-full items-center gap-3 px-4 py-3 text-left transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
                      c.userId === selected && 'bg-accent',
                    )}
                  >
                    <UserAvatar user={c} size={40} decorative />
                    <span className="grid min-w-0 flex-1 gap-0.5">
                      <span className="flex min-w-0 items-baseline gap-2">
                        <span className="truncate font-semibold">{c.displayName}</span>
                        <RelativeTime
                          date={c.lastMessageTime}
                          className="ml-auto shrink-0 text-xs text-muted-foreground"
                        />
                      </span>
                      <span className="flex min-w-0 items-center gap-2">
                        <span
                          className={cn(
                            'truncate text-sm',
                            c.unread > 0 ? 'font-medium text-foreground' : 'text-muted-foreground',
                          )}
                        >
                          {c.lastMessageMine ? 'You: ' : ''}
                          {c.lastMessage}
                        </span>
                        {c.unread > 0 ? (
                          <span
                            data-testid="conversation-unread"
                            className="ml-auto flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-semibold text-primary-foreground"
                          >
                            {c.unread > 99 ? '99+' : c.unread}
                            <span className="sr-only"> unread</span>
                          </span>
                        ) : null}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      {selected ? (
        <ChatThread key={selected} peerId={selected} onBack={() => open(null)} />
      ) : wide ? (
        <section
          aria-label="Thread"
          className="hidden min-h-0 flex-col items-center justify-center gap-2 rounded-xl border bg-card text-sm text-muted-foreground md:flex"
        >
          <MessageCircle aria-hidden="true" className="size-8 opacity-60" />
          Choose a conversation
        </section>
      ) : null}
    </div>
  );
}

interface Pending {
  clientId: string;
  content: string;
  status: 'sending' | 'failed';
}

function newClientId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

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

function ChatThread({ peerId, onBack }: { peerId: string; onBack: () => void }) {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const utils = trpc.useUtils();
  const connected = useMessagesConnected();
  const typing = useIsTyping(peerId);
  const peer = trpc.messages.peer.useQuery({ userId: peerId });
  const thread = trpc.messages.thread.useInfiniteQuery(
    { userId: peerId },
    {
      getNextPageParam: (last) => last.nextCursor,
      refetchInterval: connected ? false : THREAD_POLL_MS,
    },
  );
  const [pending, setPending] = useState<Pending[]>([]);
  const [draft, setDraft] = useState('');
  const lastTypingSent = useRef(0);

  // Newest page first in the cache; shown oldest first.
  const messages = useMemo(
    () => (thread.data ? [...thread.data.pages].reverse().flatMap((page) => page.items) : []),
    [thread.data],
  );

  const send = trpc.messages.send.useMutation();
  const markRead = trpc.messages.markRead.useMutation({
    onSuccess: () => void utils.messages.conversations.invalidate(),
  });
  const typingCall = trpc.messages.typing.useMutation();

  // An incoming message shown in the open thread, while the page is on screen, is read: tell the
  // server (and so the sender). Loading the thread reads only; a tab in the background marks
  // nothing until it is looked at again.
  const pageVisible = usePageVisible();
  const unreadIncoming = messages.some((m) => m.senderId === peerId && m.readAt === null);
  const markReadNow = markRead.mutate;
  useEffect(() => {
    if (!unreadIncoming || thread.isFetching || !pageVisible) return;
    const now = new Date();
    utils.messages.thread.setInfiniteData({ userId: peerId }, (old): CachedThread | undefined =>
      old
        ? {
            ...old,
            pages: old.pages.map((p) => ({
              ...p,
              items: p.items.map((m) =>
                m.senderId === peerId && m.readAt === null ? { ...m, readAt: now } : m,
              ),
            })),
          }
        : old,
    );
    markReadNow({ userId: peerId });
  }, [unreadIncoming, thread.isFetching, pageVisible, peerId, utils, markReadNow]);

  const deliver = useCallback(
    (item: Pending) => {
      setPending((list) => list.map((p) => (p.clientId === item.clientId ? { ...p, status: 'sending' } : p)));
      send.mutate(
        { receiverId: peerId, content: item.content, clientId: item.clientId },
        {
          onSuccess: (message: DirectMessage) => {
            utils.messages.thread.setInfiniteData({ userId: peerId }, (old) => withMessage(old, message));
            setPending((list) => list.filter((p) => p.clientId !== item.clientId));
            void utils.messages.conversations.invalidate();
          },
          onError: (error) => {
            setPending((list) =>
              list.map((p) => (p.clientId === item.clientId ? { ...p, status: 'failed' } : p)),
            );
            errorToast('Failed to send message', error, 'Please try again');
          },
        },
      );
    },
    [peerId, send, utils],
  );

  const sending = pending.some((p) => p.status === 'sending');
  // The live event may bring a message before its send answers: then the echo gives way to it.
  const delivered = useMemo(() => new Set(messages.map((m) => m.clientId).filter(Boolean)), [messages]);
  const echoes = pending.filter((p) => !delivered.has(p.clientId));
  const submit = () => {
    const content = draft.trim();
    if (!content || sending) return;
    const item: Pending = { clientId: newClientId(), content, status: 'sending' };
    setPending((list) => [...list, item]);
    setDraft('');
    if (lastTypingSent.current) {
      lastTypingSent.current = 0;
      typingCall.mutate({ userId: peerId, active: false });
    }
    deliver(item);
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

  // Scrolling: follow the newest message unless the reader scrolled up; then offer a marker.
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [newBelow, setNewBelow] = useState(false);
  const lastKey = `${messages.at(-1)?.id ?? ''}.${echoes.length}`;
  const lastMine = (echoes.length > 0 || messages.at(-1)?.senderId === me) as boolean;
  const previousKey = useRef('');
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box || lastKey === previousKey.current) return;
    const first = previousKey.current === '';
    previousKey.current = lastKey;
    if (first || atBottom.current || lastMine) {
      box.scrollTop = box.scrollHeight;
      setNewBelow(false);
    } else {
      setNewBelow(true);
    }
  }, [lastKey, lastMine]);
  const onScroll = () => {
    const box = scroller.current;
    if (!box) return;
    atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < 48;
    if (atBottom.current) setNewBelow(false);
  };
  const toBottom = () => {
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
    setNewBelow(false);
  };

  const lastOwn = [...messages].reverse().find((m) => m.senderId === me);
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
          ref={scroller}
          onScroll={onScroll}
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
              <ol aria-label="Messages" className="grid gap-2">
                {messages.map((m) => (
                  <Bubble key={m.id} mine={m.senderId === me} text={m.content} time={m.createdAt}>
                    {m.id === lastOwn?.id && echoes.length === 0 ? (m.readAt ? 'Seen' : 'Sent') : null}
                    {m.senderId !== me ? (
                      <ReportButton
                        compact
                        className="size-6 [&_svg]:size-3.5"
                        targetType="message"
                        targetId={m.id}
                        ownerId={m.senderId}
                        subject={`Message from ${name || 'this member'}`}
                      />
                    ) : null}
                  </Bubble>
                ))}
                {echoes.map((p) => (
                  <Bubble key={p.clientId} mine text={p.content} pending>
                    {p.status === 'sending' ? (
                      'Sending...'
                    ) : (
                      <span className="flex items-center gap-2 text-destructive">
                        Failed to send
                        <Button
                          variant="outline"
                          size="sm"
                          className="h-6 px-2 text-xs"
                          onClick={() => deliver(p)}
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
        {newBelow ? (
          <Button
            size="sm"
            className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-lg"
            onClick={toBottom}
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

function Bubble({
  mine,
  text,
  time,
  pending = false,
  children,
}: {
  mine: boolean;
  text: string;
  time?: Date;
  pending?: boolean;
  children?: React.ReactNode;
}) {
  return (
    <li className={cn('flex min-w-0 flex-col gap-0.5', mine ? 'items-end' : 'items-start')} data-mine={mine}>
      <div
        className={cn(
          'max-w-[85%] min-w-0 rounded-2xl px-3.5 py-2 text-sm md:max-w-[70%]',
          mine
            ? 'rounded-br-md bg-primary text-primary-foreground'
            : 'rounded-bl-md bg-muted text-foreground',
          pending && 'opacity-70',
        )}
      >
        <span className="sr-only">{mine ? 'You: ' : ''}</span>
        <UserText text={text} />
      </div>
      <span className="flex items-center gap-2 px-1 text-[11px] text-muted-foreground">
        {time ? <RelativeTime date={time} /> : null}
        {children}
      </span>
    </li>
  );
}
