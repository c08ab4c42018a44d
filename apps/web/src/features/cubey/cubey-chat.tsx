/**
 * Chat with Cubey: the member's chats (New Chat, the most recent chosen by itself) and a message
 * area. The answer is the server's: the page follows it over the socket (`cubey.onAnswer`), so a
 * reload, a second tab or a switch of chats shows the answer so far and then the rest. Stop ends
 * it from any tab; Regenerate replaces the last answer. The chat list is live too
 * (`cubey.onSessions`): a chat or an answer started in another tab or on another instance shows
 * here at once, to follow and to stop.
 */

import type { RouterOutputs } from '@cubes/api/client';
import { CUBEY_MESSAGE_MAX_LENGTH } from '@cubes/api/schemas';
import { MessageSquarePlus, RefreshCw, SendHorizontal, Square } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { UserText } from '../../components/user-text';
import { cn } from '../../lib/cn';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { CubeyLookups } from './cubey-lookups';
import { CubeyUsageLine } from './cubey-usage';
import { Markdown } from './markdown';
import { Placeholder } from './tool-panels';

type Message = RouterOutputs['cubey']['messages'][number];

export function CubeyChat() {
  const { user, status } = useAuth();
  if (status === 'loading') {
    return (
      <p className="flex items-center gap-2 p-6 text-sm text-muted-foreground">
        <Spinner /> Loading...
      </p>
    );
  }
  if (!user) {
    return (
      <div className="grid justify-items-center gap-3 pb-8">
        <Placeholder
          title="Chat with Cubey"
          text="Please login to chat with Cubey, the community's AI assistant."
        />
        <Button asChild>
          <Link to="/auth">Login</Link>
        </Button>
      </div>
    );
  }
  return <ChatPanel />;
}

/** Follows the answer being written in `sessionId`, writing each piece into the messages cache. */
function useAnswerStream(sessionId: string | null, streaming: Message | undefined) {
  const utils = trpc.useUtils();
  // The length the page had when it started to follow an answer: the server sends the rest.
  const from = useRef(new Map<string, string>());
  if (streaming && !from.current.has(streaming.id))
    from.current.set(streaming.id, String(streaming.content.length));
  trpc.cubey.onAnswer.useSubscription(
    { messageId: streaming?.id ?? '', lastEventId: streaming ? from.current.get(streaming.id) : null },
    {
      enabled: !!streaming && !!sessionId,
      onData: ({ data }) => {
        if (!sessionId) return;
        utils.cubey.messages.setData({ sessionId }, (old) =>
          old?.map((m) =>
            m.id === data.messageId
              ? {
                  ...m,
                  content: m.content.slice(0, data.offset) + data.delta,
                  status: data.status,
                  error: data.error,
                }
              : m,
          ),
        );
        // A finished answer may have brought the chat a title from the model, the look-ups it
        // made (saved with it) and tokens spent.
        if (data.status !== 'streaming') {
          void utils.cubey.sessions.invalidate();
          void utils.cubey.messages.invalidate({ sessionId });
          void utils.cubey.usage.invalidate();
        }
      },
      onError: () => {
        // The socket is down for good: read what the server saved.
        if (sessionId) void utils.cubey.messages.invalidate({ sessionId });
      },
    },
  );
}

/** Keeps the chat list, and a chat whose answer another tab started, in step with the server. */
function useLiveSessions() {
  const utils = trpc.useUtils();
  trpc.cubey.onSessions.useSubscription(undefined, {
    onData: ({ data }) => {
      void utils.cubey.sessions.invalidate();
      // An answer this page does not know yet: load it, then `useAnswerStream` follows it. One it
      // already follows is left alone: a reload would drop the text that is not saved yet.
      const known = utils.cubey.messages.getData({ sessionId: data.sessionId });
      if (data.streamingId && !known?.some((m) => m.id === data.streamingId)) {
        void utils.cubey.messages.invalidate({ sessionId: data.sessionId });
      }
    },
  });
}

function ChatPanel() {
  const utils = trpc.useUtils();
  const sessions = trpc.cubey.sessions.useQuery();
  useLiveSessions();
  // null: the most recent chat; 'new': a chat not started yet.
  const [chosen, setChosen] = useState<string | null>(null);
  const sessionId = chosen === 'new' ? null : (chosen ?? sessions.data?.[0]?.id ?? null);
  const messages = trpc.cubey.messages.useQuery({ sessionId: sessionId ?? '' }, { enabled: !!sessionId });
  const list = sessionId ? (messages.data ?? []) : [];
  const streaming = list.find((m) => m.role === 'assistant' && m.status === 'streaming');
  useAnswerStream(sessionId, streaming);

  const [draft, setDraft] = useState('');
  const send = trpc.cubey.send.useMutation({
    onSuccess: (started) => {
      utils.cubey.messages.setData({ sessionId: started.sessionId }, (old) => [
        ...(old ?? []),
        ...(started.message ? [started.message] : []),
        started.reply,
      ]);
      setChosen(started.sessionId);
      setDraft('');
      void utils.cubey.sessions.invalidate();
    },
    onError: (error) => errorToast('Failed to send message', error),
  });
  const regenerate = trpc.cubey.regenerate.useMutation({
    onSuccess: (started) => {
      utils.cubey.messages.setData({ sessionId: started.sessionId }, (old) => [
        ...(old ?? []).filter((m, i, all) => !(i === all.length - 1 && m.role === 'assistant')),
        started.reply,
      ]);
    },
    onError: (error) => errorToast('Failed to regenerate the answer', error),
  });
  const stop = trpc.cubey.stop.useMutation({
    onError: (error) => errorToast('Failed to stop the answer', error),
  });

  const busy = send.isPending || regenerate.isPending || !!streaming;
  const canSend = draft.trim().length > 0 && !busy;
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    send.mutate({ message: draft, sessionId });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  // Scroll to the newest message whenever one arrives or the answer grows.
  const scroller = useRef<HTMLDivElement>(null);
  const last = list.at(-1);
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [list.length, last?.content.length, send.isPending]);

  const lastAnswer = last?.role === 'assistant' && last.status !== 'streaming' ? last : null;

  return (
    <div className="grid min-h-0 gap-4 md:grid-cols-[14rem_minmax(0,1fr)]">
      <nav aria-label="Chats" className="grid min-w-0 content-start gap-2">
        <Button
          variant="outline"
          onClick={() => setChosen('new')}
          disabled={chosen === 'new' && list.length === 0}
        >
          <MessageSquarePlus aria-hidden="true" /> New Chat
        </Button>
        {sessions.isPending ? (
          <p className="text-sm text-muted-foreground">Loading chats...</p>
        ) : sessions.isError ? (
          <p className="text-sm text-destructive">
            Failed to load your chats.{' '}
            <button type="button" className="underline" onClick={() => void sessions.refetch()}>
              Retry
            </button>
          </p>
        ) : sessions.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No chats yet.</p>
        ) : (
          <ul className="flex gap-2 overflow-x-auto pb-1 md:grid md:max-h-[28rem] md:overflow-y-auto">
            {sessions.data.map((s) => (
              <li key={s.id} className="min-w-0 shrink-0 md:shrink">
                <button
                  type="button"
                  onClick={() => setChosen(s.id)}
                  aria-current={s.id === sessionId ? 'true' : undefined}
                  className={cn(
                    'user-text w-44 truncate rounded-md px-3 py-2 text-left text-sm hover:bg-accent md:w-full',
                    s.id === sessionId && 'bg-accent font-medium',
                  )}
                  title={s.title}
                >
                  {s.title}
                </button>
              </li>
            ))}
          </ul>
        )}
      </nav>

      <section aria-label="Conversation with Cubey" className="grid min-w-0 gap-3">
        <div
          ref={scroller}
          className="h-[55vh] min-h-72 overflow-y-auto rounded-lg border bg-background p-3 sm:p-4"
          aria-live="polite"
          aria-busy={busy}
        >
          {sessionId && messages.isPending ? (
            <p className="text-sm text-muted-foreground">Loading messages...</p>
          ) : sessionId && messages.isError ? (
            <p className="text-sm text-destructive">Failed to fetch messages</p>
          ) : list.length === 0 && !send.isPending ? (
            <div className="grid h-full place-items-center text-center text-sm text-muted-foreground">
              <p>
                Hi, I'm Cubey 🧊 Ask me what is trending, who posts about a topic,
                <br className="hidden sm:inline" /> or how anything in the app works.
              </p>
            </div>
          ) : (
            <ol className="grid gap-3">
              {list.map((m) => (
                <MessageBubble key={m.id} message={m} />
              ))}
              {send.isPending ? <Thinking /> : null}
            </ol>
          )}
        </div>

        <form onSubmit={submit} className="grid gap-2">
          <Textarea
            aria-label="Message Cubey"
            placeholder="Ask Cubey anything..."
            value={draft}
            maxLength={CUBEY_MESSAGE_MAX_LENGTH}
            rows={2}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            className="max-h-48 min-h-16 resize-y"
          />
          <div className="flex flex-wrap items-center justify-end gap-2">
            <div className="mr-auto grid gap-0.5">
              <span className="text-xs text-muted-foreground">
                Enter sends · Shift+Enter makes a new line
              </span>
              <CubeyUsageLine />
            </div>
            {streaming ? (
              <Button
                variant="outline"
                onClick={() => stop.mutate({ messageId: streaming.id })}
                disabled={stop.isPending}
              >
                <Square aria-hidden="true" /> Stop
              </Button>
            ) : lastAnswer && sessionId ? (
              <Button variant="outline" onClick={() => regenerate.mutate({ sessionId })} disabled={busy}>
                <RefreshCw aria-hidden="true" /> Regenerate
              </Button>
            ) : null}
            <Button type="submit" disabled={!canSend}>
              {send.isPending ? <Spinner /> : <SendHorizontal aria-hidden="true" />} Send
            </Button>
          </div>
        </form>
      </section>
    </div>
  );
}

function Thinking() {
  return (
    <li className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
      <Spinner /> Thinking...
    </li>
  );
}

function MessageBubble({ message }: { message: Message }) {
  if (message.role === 'user') {
    return (
      <li className="flex justify-end">
        <div className="min-w-0 max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-3 py-2 text-primary-foreground">
          <UserText text={message.content} className="text-sm" />
        </div>
      </li>
    );
  }
  if (message.status === 'streaming' && message.content === '') return <Thinking />;
  return (
    <li className="flex justify-start">
      <div className="min-w-0 max-w-[92%] rounded-2xl rounded-bl-sm bg-muted/60 px-3 py-2">
        <p className="mb-1 text-xs font-semibold text-primary">Cubey</p>
        <CubeyLookups lookups={message.lookups ?? []} />
        {message.content ? <Markdown source={message.content} /> : null}
        {message.status === 'stopped' ? (
          <p className="mt-1 text-xs text-muted-foreground">
            {message.content ? 'Stopped' : 'Stopped before Cubey answered'}
          </p>
        ) : null}
        {message.status === 'failed' ? (
          <p className="mt-1 text-xs text-destructive">
            Cubey could not answer: {message.error ?? 'the AI provider failed'}
          </p>
        ) : null}
      </div>
    </li>
  );
}
