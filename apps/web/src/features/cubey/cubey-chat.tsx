/**
 * Chat with Cubey: the member's chats (New Chat, the most recent chosen by itself) and a message
 * area. The answer is the server's: the page follows it over the socket (`cubey.onAnswer`), so a
 * reload, a second tab or a switch of chats shows the answer so far and then the rest. Stop ends
 * it from any tab; Regenerate replaces the last answer. The chat list is live too
 * (`cubey.onSessions`): a chat or an answer started in another tab or on another instance shows
 * here at once, to follow and to stop. Chats can be renamed, deleted (with Undo) and searched
 * (chat-list.tsx, chat-header.tsx); the last message can be edited and resent, its earlier
 * versions kept to switch between (‹ 1/2 ›); every answer and code block has Copy.
 */

import type { RouterOutputs } from '@cubes/api/client';
import { CUBEY_MESSAGE_MAX_LENGTH } from '@cubes/api/schemas';
import { ChevronLeft, ChevronRight, Pencil, RefreshCw, SendHorizontal, Square } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { UserText } from '../../components/user-text';
import { discardDraft, draftPlaces, useDraft } from '../../lib/drafts';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { ChatHeader } from './chat-header';
import { ChatList } from './chat-list';
import { CopyButton } from './copy-button';
import { CubeyLookups } from './cubey-lookups';
import { CubeyUsageLine } from './cubey-usage';
import { Placeholder } from './tool-panels';

type Message = RouterOutputs['cubey']['messages'][number];

// Markdown (react-markdown, remark-gfm: most of the Cubes page's code) comes only with a member's
// chats, never for a visitor, who sees the login prompt: the page's first paint waited for it.
// ChatPanel asks for it as it mounts, beside the chats' first answers.
const loadMarkdown = () => import('./markdown');
const Markdown = lazy(() => loadMarkdown().then((module) => ({ default: module.Markdown })));

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
                  // The look-ups so far come as the model makes them, before its words.
                  lookups: data.lookups ?? m.lookups,
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

/**
 * Keeps the chat list, and a chat whose answer another tab started, in step with the server;
 * `onDeleted` hears of a chat deleted in any tab.
 */
function useLiveSessions(onDeleted: (sessionId: string) => void) {
  const utils = trpc.useUtils();
  trpc.cubey.onSessions.useSubscription(undefined, {
    onData: ({ data }) => {
      void utils.cubey.sessions.invalidate();
      void utils.cubey.search.invalidate();
      if (data.deleted) {
        onDeleted(data.sessionId);
        return;
      }
      // A rename, a version shown, an edit: what another tab changed is read again.
      if (!data.streamingId) void utils.cubey.messages.invalidate({ sessionId: data.sessionId });
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
  useEffect(() => {
    void loadMarkdown().catch(() => {
      // The answer that needs it asks again, and shows the failure.
    });
  }, []);
  const utils = trpc.useUtils();
  const sessions = trpc.cubey.sessions.useQuery();
  // null: the most recent chat; 'new': a chat not started yet.
  const [chosen, setChosen] = useState<string | null>(null);
  const sessionId = chosen === 'new' ? null : (chosen ?? sessions.data?.[0]?.id ?? null);
  useLiveSessions((deleted) => {
    if (deleted === sessionId) setChosen(null);
  });
  const current = sessions.data?.find((s) => s.id === sessionId);
  const messages = trpc.cubey.messages.useQuery({ sessionId: sessionId ?? '' }, { enabled: !!sessionId });
  const list = sessionId ? (messages.data ?? []) : [];
  const streaming = list.find((m) => m.role === 'assistant' && m.status === 'streaming');
  useAnswerStream(sessionId, streaming);

  // Kept across pages until sent, per chat (lib/drafts.ts).
  const [draft, setDraft] = useDraft(draftPlaces.cubey(sessionId));
  const send = trpc.cubey.send.useMutation({
    onSuccess: (started, sent) => {
      utils.cubey.messages.setData({ sessionId: started.sessionId }, (old) => [
        ...(old ?? []),
        ...(started.message ? [started.message] : []),
        started.reply,
      ]);
      setChosen(started.sessionId);
      discardDraft(draftPlaces.cubey(sent.sessionId ?? null));
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
  const edit = trpc.cubey.edit.useMutation({
    onSuccess: (started) => {
      utils.cubey.messages.setData({ sessionId: started.sessionId }, (old) => {
        const list = old ?? [];
        const at = list.findLastIndex((m) => m.role === 'user');
        return [
          ...list.slice(0, Math.max(0, at)),
          ...(started.message ? [started.message] : []),
          started.reply,
        ];
      });
      // The versions of the edited message come with the messages, read again.
      void utils.cubey.messages.invalidate({ sessionId: started.sessionId });
    },
    onError: (error) => errorToast('Failed to send the edited message', error),
  });
  const switchVersion = trpc.cubey.switchVersion.useMutation({
    onSuccess: (result) => {
      if (sessionId) utils.cubey.messages.setData({ sessionId }, result.messages);
    },
    onError: (error) => errorToast('Failed to show that version', error),
  });
  const stop = trpc.cubey.stop.useMutation({
    onError: (error) => errorToast('Failed to stop the answer', error),
  });

  const busy =
    send.isPending || regenerate.isPending || edit.isPending || switchVersion.isPending || !!streaming;
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

  // Scroll to the newest message whenever one arrives or the answer grows (a look-up too).
  const scroller = useRef<HTMLDivElement>(null);
  const last = list.at(-1);
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [list.length, last?.content.length, last?.lookups?.length, send.isPending]);

  const lastAnswer = last?.role === 'assistant' && last.status !== 'streaming' ? last : null;
  const lastQuestionId = list.findLast((m) => m.role === 'user')?.id;

  return (
    <div className="grid min-h-0 gap-4 md:grid-cols-[14rem_minmax(0,1fr)]">
      <ChatList
        sessions={sessions}
        currentId={sessionId}
        onChoose={setChosen}
        onNew={() => setChosen('new')}
        newDisabled={chosen === 'new' && list.length === 0}
      />

      <div className="grid min-w-0 content-start gap-3">
        {current ? (
          <ChatHeader
            key={current.id}
            session={current}
            onDeleted={() => setChosen(null)}
            onRestored={(id) => setChosen(id)}
          />
        ) : null}
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
                  <MessageBubble
                    key={m.id}
                    message={m}
                    editable={m.id === lastQuestionId && !busy}
                    switchable={m.id === lastQuestionId && !busy}
                    onEdit={(message) => edit.mutate({ messageId: m.id, message })}
                    onShow={(messageId) => switchVersion.mutate({ messageId })}
                  />
                ))}
                {send.isPending ? (
                  <li>
                    <Thinking />
                  </li>
                ) : null}
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
    </div>
  );
}

/** "Thinking..." while an answer has no words yet: alone, or under the look-ups made so far. */
function Thinking() {
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
      <Spinner /> Thinking...
    </p>
  );
}

function MessageBubble({
  message,
  editable = false,
  switchable = false,
  onEdit,
  onShow,
}: {
  message: Message;
  editable?: boolean;
  switchable?: boolean;
  onEdit?: (message: string) => void;
  onShow?: (messageId: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.content);
  if (message.role === 'user') {
    const versions = message.versions ?? [];
    const at = versions.indexOf(message.id);
    if (editing) {
      const submit = (event?: FormEvent) => {
        event?.preventDefault();
        const text = draft.trim();
        if (!text) return;
        setEditing(false);
        if (text !== message.content.trim()) onEdit?.(text);
      };
      return (
        <li className="flex justify-end">
          <form onSubmit={submit} className="grid w-full max-w-[85%] gap-2">
            <Textarea
              aria-label="Edit your message"
              value={draft}
              maxLength={CUBEY_MESSAGE_MAX_LENGTH}
              rows={3}
              autoFocus
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') setEditing(false);
                if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) submit(e);
              }}
              className="max-h-48 min-h-16 resize-y"
            />
            <div className="flex justify-end gap-2">
              <Button variant="ghost" size="sm" onClick={() => setEditing(false)}>
                Cancel
              </Button>
              <Button type="submit" size="sm" disabled={!draft.trim()}>
                <SendHorizontal aria-hidden="true" /> Send
              </Button>
            </div>
          </form>
        </li>
      );
    }
    return (
      <li className="grid justify-items-end gap-1">
        <div className="min-w-0 max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-3 py-2 text-primary-foreground">
          <UserText text={message.content} className="text-sm" />
        </div>
        {versions.length > 1 || editable ? (
          <div className="flex items-center gap-1 text-xs text-muted-foreground">
            {versions.length > 1 ? (
              <nav aria-label="Versions of this message" className="flex items-center">
                <button
                  type="button"
                  aria-label="Previous version"
                  disabled={!switchable || at <= 0}
                  onClick={() => onShow?.(versions[at - 1]!)}
                  className="rounded p-1 hover:bg-accent disabled:opacity-40"
                >
                  <ChevronLeft aria-hidden="true" className="size-3.5" />
                </button>
                <span aria-live="polite">
                  {at + 1}/{versions.length}
                </span>
                <button
                  type="button"
                  aria-label="Next version"
                  disabled={!switchable || at >= versions.length - 1}
                  onClick={() => onShow?.(versions[at + 1]!)}
                  className="rounded p-1 hover:bg-accent disabled:opacity-40"
                >
                  <ChevronRight aria-hidden="true" className="size-3.5" />
                </button>
              </nav>
            ) : null}
            {editable ? (
              <button
                type="button"
                aria-label="Edit your message"
                onClick={() => {
                  setDraft(message.content);
                  setEditing(true);
                }}
                className="inline-flex items-center gap-1 rounded-md px-1.5 py-1 hover:bg-accent hover:text-foreground"
              >
                <Pencil aria-hidden="true" className="size-3.5" /> Edit
              </button>
            ) : null}
          </div>
        ) : null}
      </li>
    );
  }
  const lookups = message.lookups ?? [];
  const thinking = message.status === 'streaming' && message.content === '';
  if (thinking && lookups.length === 0) {
    return (
      <li>
        <Thinking />
      </li>
    );
  }
  return (
    <li className="flex justify-start">
      <div className="min-w-0 max-w-[92%] rounded-2xl rounded-bl-sm bg-muted/60 px-3 py-2">
        <p className="mb-1 text-xs font-semibold text-primary">Cubey</p>
        <CubeyLookups lookups={lookups} />
        {thinking ? <Thinking /> : null}
        {message.content ? (
          <Suspense
            fallback={
              <p className="user-text text-sm leading-relaxed whitespace-pre-wrap">{message.content}</p>
            }
          >
            <Markdown source={message.content} streaming={message.status === 'streaming'} />
          </Suspense>
        ) : null}
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
        {message.status !== 'streaming' && message.content ? (
          <div className="mt-1 flex justify-end">
            <CopyButton text={message.content} label="Copy answer" />
          </div>
        ) : null}
      </div>
    </li>
  );
}
