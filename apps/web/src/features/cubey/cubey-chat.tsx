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

import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useAuth } from '../auth/auth-provider';
import { ChatComposer } from './chat-composer';
import { ChatHeader } from './chat-header';
import { ChatList } from './chat-list';
import { MessageBubble, preloadMarkdown, Thinking } from './message-bubble';
import { Placeholder } from './tool-panels';
import { type CubeyChatState, useCubeyChat } from './use-cubey-chat';

export function CubeyChat() {
  const { user, status } = useAuth();
  const { t } = useLingui();
  if (status === 'loading') {
    return (
      <p className="flex items-center gap-2 p-6 text-sm text-muted-foreground">
        <Spinner /> <Trans>Loading...</Trans>
      </p>
    );
  }
  if (!user) {
    return (
      <div className="grid justify-items-center gap-3 pb-8">
        <Placeholder
          title={t`Chat with Cubey`}
          text={t`Please login to chat with Cubey, the community's AI assistant.`}
        />
        <Button asChild>
          <Link to="/auth">
            <Trans>Login</Trans>
          </Link>
        </Button>
      </div>
    );
  }
  return <ChatPanel />;
}

function ChatPanel() {
  useEffect(preloadMarkdown, []);
  const chat = useCubeyChat();
  const { current, list } = chat;
  const { t } = useLingui();
  return (
    <div className="grid min-h-0 gap-4 md:grid-cols-[14rem_minmax(0,1fr)]">
      <ChatList
        sessions={chat.sessions}
        currentId={chat.sessionId}
        onChoose={chat.choose}
        onNew={() => chat.choose('new')}
        newDisabled={chat.chosen === 'new' && list.length === 0}
      />

      <div className="grid min-w-0 content-start gap-3">
        {current ? (
          <ChatHeader
            key={current.id}
            session={current}
            onDeleted={() => chat.choose(null)}
            onRestored={(id) => chat.choose(id)}
          />
        ) : null}
        <section aria-label={t`Conversation with Cubey`} className="grid min-w-0 gap-3">
          <Conversation chat={chat} />
          <ChatComposer chat={chat} />
        </section>
      </div>
    </div>
  );
}

/** The messages of the chat shown, scrolled to the newest as it arrives or grows. */
function Conversation({ chat }: { chat: CubeyChatState }) {
  const { list, last, sessionId, messages, busy } = chat;
  // Scroll to the newest message whenever one arrives or the answer grows (a look-up too).
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [list.length, last?.content.length, last?.lookups?.length, chat.isSending]);

  return (
    <div
      ref={scroller}
      className="h-[55vh] min-h-72 overflow-y-auto rounded-lg border bg-background p-3 sm:p-4"
      aria-live="polite"
      aria-busy={busy}
    >
      {sessionId && messages.isPending ? (
        <p className="text-sm text-muted-foreground">
          <Trans>Loading messages...</Trans>
        </p>
      ) : sessionId && messages.isError ? (
        <p className="text-sm text-destructive">
          <Trans>Failed to fetch messages</Trans>
        </p>
      ) : list.length === 0 && !chat.isSending ? (
        <div className="grid h-full place-items-center text-center text-sm text-muted-foreground">
          <p>
            <Trans>
              Hi, I'm Cubey 🧊 Ask me what is trending, who posts about a topic,
              <br className="hidden sm:inline" /> or how anything in the app works.
            </Trans>
          </p>
        </div>
      ) : (
        <ol className="grid gap-3">
          {list.map((m) => (
            <MessageBubble
              key={m.id}
              message={m}
              editable={m.id === chat.lastQuestionId && !busy}
              switchable={m.id === chat.lastQuestionId && !busy}
              onEdit={(message) => chat.edit(m.id, message)}
              onShow={chat.showVersion}
            />
          ))}
          {/* Until the answer is in the list; then its own bubble thinks (one "Thinking..."). */}
          {chat.isSending && !chat.streaming ? (
            <li>
              <Thinking />
            </li>
          ) : null}
        </ol>
      )}
    </div>
  );
}
