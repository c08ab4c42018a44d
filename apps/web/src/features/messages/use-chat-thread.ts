/**
 * The state of one open conversation (chat-thread.tsx): the peer and the thread (polled only
 * while the socket is down), the messages oldest first and placed in groups (message-groups.ts),
 * the echoes of what this tab is sending (use-outbox.ts), the draft with the typing signal it
 * sends the peer, following the newest message (use-stick-to-bottom.ts), and marking incoming
 * messages read while the page is on screen.
 */
import { TYPING_REFRESH_MS } from '@cubes/api/rules';
import { type FormEvent, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useZodForm } from '../../components/form/use-zod-form';
import { lazySchema } from '../../lib/lazy-schema';
import { useAuth } from '../auth/auth-provider';
import { useMarkThreadRead, usePeerQuery, useThreadQuery, useTypingMutation } from './chat-queries';
import { placeMessages } from './message-groups';
import { useIsTyping, useMessagesConnected } from './messages-live';
import { useOutbox } from './use-outbox';
import { useStickToBottom } from './use-stick-to-bottom';

// The send's schema comes with zod, loaded when the draft is first checked (lib/lazy-schema.ts):
// the chat paints and starts without it.
const loadSendMessageSchema = lazySchema('sendMessageInput');

export const THREAD_POLL_MS = 3_000;

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

/** Tells the peer when the member starts and stops typing, at most once per TYPING_REFRESH_MS. */
function useTypingSignal(peerId: string) {
  const typingCall = useTypingMutation();
  const lastSent = useRef(0);
  /** The draft changed to `value`. */
  const changed = (value: string) => {
    const now = Date.now();
    if (value.trim() && now - lastSent.current >= TYPING_REFRESH_MS) {
      lastSent.current = now;
      typingCall.mutate({ userId: peerId, active: true });
    } else if (!value.trim()) stopped();
  };
  /** The draft was sent or emptied. */
  const stopped = () => {
    if (!lastSent.current) return;
    lastSent.current = 0;
    typingCall.mutate({ userId: peerId, active: false });
  };
  return { changed, stopped };
}

export function useChatThread(peerId: string) {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const connected = useMessagesConnected();
  const typing = useIsTyping(peerId);
  const peer = usePeerQuery(peerId);
  const thread = useThreadQuery(peerId, connected, THREAD_POLL_MS);
  // The draft is checked with the send's own schema: an empty or too long message gets its words.
  const form = useZodForm(
    loadSendMessageSchema,
    { content: '' },
    { toInput: ({ content }) => ({ receiverId: peerId, content }) },
  );
  const draft = form.values.content;
  const typingSignal = useTypingSignal(peerId);

  // Newest page first in the cache; shown oldest first.
  const messages = useMemo(
    () => (thread.data ? [...thread.data.pages].reverse().flatMap((page) => page.items) : []),
    [thread.data],
  );

  // An incoming message shown in the open thread, while the page is on screen, is read: tell the
  // server (and so the sender). Loading the thread reads only; a tab in the background marks
  // nothing until it is looked at again.
  const markThreadRead = useMarkThreadRead(peerId);
  const pageVisible = usePageVisible();
  const unreadIncoming = messages.some((m) => m.senderId === peerId && m.readAt === null);
  useEffect(() => {
    if (unreadIncoming && !thread.isFetching && pageVisible) markThreadRead();
  }, [unreadIncoming, thread.isFetching, pageVisible, markThreadRead]);

  const outbox = useOutbox(peerId, messages);
  const { echoes, sending } = outbox;

  /** Sends the draft as the schema has it (trimmed); one it refuses says why; nothing while a message is on its way. */
  const send = form.handleSubmit(({ content }) => {
    form.reset();
    typingSignal.stopped();
    outbox.send(content);
  });
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!sending) send(event);
  };

  const changeDraft = (value: string) => {
    form.setValue('content', value);
    typingSignal.changed(value);
  };

  // Follow the newest message unless the reader scrolled up; their own always shows.
  const lastKey = `${messages.at(-1)?.id ?? ''}.${echoes.length}`;
  const lastMine = echoes.length > 0 || messages.at(-1)?.senderId === me;
  const scroll = useStickToBottom<HTMLDivElement>(lastKey, lastMine);

  const placed = useMemo(() => placeMessages(messages, me, echoes.length > 0), [messages, me, echoes.length]);

  return {
    peer,
    /** The peer's display name, '' until known. */
    name: peer.data?.displayName ?? '',
    canMessage: peer.data?.canMessage ?? true,
    typing,
    thread,
    /** Nothing sent or received yet, in the cache or on its way. */
    empty: messages.length === 0 && echoes.length === 0,
    placed,
    echoes,
    retry: outbox.retry,
    sending,
    draft,
    /** The draft's id, and what the schema says of it (after a submit, then while typing). */
    draftId: form.fieldId('content'),
    draftError: form.errors.content ?? form.errors.root,
    changeDraft,
    submit,
    scroll,
  };
}

export type ChatThreadState = ReturnType<typeof useChatThread>;
