/**
 * One open conversation on the Chat page: the other member's name (thread-header.tsx), the
 * messages (message-list.tsx: own bubbles apart from theirs, grouped by sender with one time per
 * group, "Seen" once under the newest own message read: message-groups.ts; links, @mentions and
 * #tags linked and readable on either bubble, message-bubble.tsx; older pages on demand), the
 * typing line and the input that sends on Enter and makes a new line on Shift+Enter
 * (message-composer.tsx). Incoming messages shown while the page is on screen are marked read;
 * polling runs only while the socket is down. The state is use-chat-thread.ts's.
 */
import { useLingui } from '@lingui/react/macro';
import { MessageComposer } from './message-composer';
import { MessageList } from './message-list';
import { ThreadHeader } from './thread-header';
import { useChatThread } from './use-chat-thread';

export function ChatThread({ peerId, onBack }: { peerId: string; onBack: () => void }) {
  const { t } = useLingui();
  const chat = useChatThread(peerId);
  const name = chat.name;
  return (
    <section
      aria-label={t`Thread`}
      className="flex min-h-0 flex-col overflow-hidden rounded-xl border bg-card"
    >
      <ThreadHeader peer={chat.peer} onBack={onBack} />
      <MessageList {...chat} />
      <p aria-live="polite" className="h-5 px-4 text-xs text-muted-foreground">
        {chat.typing && name ? t`${name} is typing...` : ''}
      </p>
      <MessageComposer {...chat} />
    </section>
  );
}
