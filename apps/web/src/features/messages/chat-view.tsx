/**
 * The Chat page: the conversation list (avatar, name, last message, time, unread badge) beside the
 * open thread (chat-thread.tsx). `/chat?user={id}` opens or starts a conversation; without it the
 * newest conversation opens by itself; New message starts one with a member picked by name (from md up; on a phone the list and the thread are two
 * steps with a Back button). Live updates come from MessagesLive; the polling here runs only while
 * the socket is down.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { MessageCircle } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { RelativeTime } from '../../components/relative-time';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { cn } from '../../lib/cn';
import { useMediaQuery } from '../../lib/use-media-query';
import { useConversationsQuery } from './chat-queries';
import { ChatThread } from './chat-thread';
import { FETCH_FAILED } from './message-list';
import { useMessagesConnected } from './messages-live';
import { NewConversationButton } from './new-conversation';

export const CONVERSATIONS_POLL_MS = 5_000;

export function ChatView() {
  const { i18n, t } = useLingui();
  const [params, setParams] = useSearchParams();
  // From md up the list and the thread sit side by side, and the newest conversation opens itself.
  const wide = useMediaQuery('(min-width: 768px)', true);
  const connected = useMessagesConnected();
  const conversations = useConversationsQuery(connected, CONVERSATIONS_POLL_MS);
  const chosen = params.get('user')?.toLowerCase() ?? null;
  const items = conversations.data ?? [];
  const selected = chosen ?? (wide ? (items[0]?.userId ?? null) : null);

  const open = (userId: string | null) => setParams(userId ? { user: userId } : {}, { replace: !userId });

  return (
    <div className="grid h-[calc(100dvh-11.5rem-env(safe-area-inset-bottom))] min-h-80 grid-cols-1 md:h-[calc(100dvh-8.5rem)] md:grid-cols-[20rem_minmax(0,1fr)] md:gap-4">
      {/* On a phone the list and the thread are two steps: one shows at a time. */}
      <section
        aria-label={t`Conversations`}
        hidden={Boolean(selected) && !wide}
        className="flex min-h-0 flex-col overflow-hidden rounded-xl border bg-card [&[hidden]]:hidden"
      >
        <div className="flex items-center justify-between gap-2 border-b px-4 py-2.5">
          <h1 className="text-lg font-semibold">
            <Trans>Chat</Trans>
          </h1>
          <NewConversationButton onPick={open} />
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">
          {conversations.isPending ? (
            <p
              role="status"
              className="flex items-center justify-center gap-2 px-4 py-10 text-sm text-muted-foreground"
            >
              <Spinner /> <Trans>Loading conversations...</Trans>
            </p>
          ) : conversations.isError ? (
            <div role="alert" className="grid justify-items-center gap-2 px-4 py-10 text-sm">
              <p className="text-muted-foreground">{i18n._(FETCH_FAILED)}</p>
              <Button variant="outline" size="sm" onClick={() => void conversations.refetch()}>
                <Trans>Retry</Trans>
              </Button>
            </div>
          ) : items.length === 0 ? (
            <div className="grid justify-items-center gap-2 px-6 py-10 text-center text-sm text-muted-foreground">
              <MessageCircle aria-hidden="true" className="size-6 opacity-60" />
              <p>
                <Trans>No conversations yet</Trans>
              </p>
              <p>
                <Trans>Press New message, or Message on a member’s profile, to start one.</Trans>
              </p>
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
                      'flex w-full items-center gap-3 px-4 py-3 text-start transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
                      c.userId === selected && 'bg-accent',
                    )}
                  >
                    <UserAvatar user={c} size={40} decorative />
                    <span className="grid min-w-0 flex-1 gap-0.5">
                      <span className="flex min-w-0 items-baseline gap-2">
                        <span className="truncate font-semibold">{c.displayName}</span>
                        <RelativeTime
                          date={c.lastMessageTime}
                          className="ms-auto shrink-0 text-xs text-muted-foreground"
                        />
                      </span>
                      <span className="flex min-w-0 items-center gap-2">
                        <span
                          className={cn(
                            'truncate text-sm',
                            c.unread > 0 ? 'font-medium text-foreground' : 'text-muted-foreground',
                          )}
                        >
                          {c.lastMessageMine ? `${t`You:`} ` : ''}
                          {c.lastMessage}
                        </span>
                        {c.unread > 0 ? (
                          <span
                            data-testid="conversation-unread"
                            className="ms-auto flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-semibold text-primary-foreground"
                          >
                            {c.unread > 99 ? `${i18n.number(99)}+` : i18n.number(c.unread)}
                            <span className="sr-only">
                              {' '}
                              <Trans>unread</Trans>
                            </span>
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
          aria-label={t`Thread`}
          className="hidden min-h-0 flex-col items-center justify-center gap-2 rounded-xl border bg-card text-sm text-muted-foreground md:flex"
        >
          <MessageCircle aria-hidden="true" className="size-8 opacity-60" />
          <Trans>Choose a conversation</Trans>
        </section>
      ) : null}
    </div>
  );
}
