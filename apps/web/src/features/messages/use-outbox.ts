/**
 * The messages this tab is sending to one member: each shows at once as an echo marked
 * "Sending...", gives way to the real message when the server (or the live event, whichever comes
 * first) has it, and stays as "Failed to send" with a retry when the send fails.
 */
import { msg } from '@lingui/core/macro';
import { useCallback, useMemo, useState } from 'react';
import { errorToast } from '../../lib/error-toast';
import { i18n } from '../../lib/i18n';
import { useSendMessageMutation } from './chat-queries';
import type { DirectMessage } from './queries';

export interface OutboxItem {
  clientId: string;
  content: string;
  status: 'sending' | 'failed';
}

function newClientId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

/** `messages` is the thread as shown: an echo whose message is already in it is not shown twice. */
export function useOutbox(peerId: string, messages: readonly DirectMessage[]) {
  const send = useSendMessageMutation(peerId);
  const [pending, setPending] = useState<OutboxItem[]>([]);

  const deliver = useCallback(
    (item: OutboxItem) => {
      setPending((list) => list.map((p) => (p.clientId === item.clientId ? { ...p, status: 'sending' } : p)));
      send.mutate(
        { receiverId: peerId, content: item.content, clientId: item.clientId },
        {
          // The message is in the thread now (chat-queries.ts): the echo gives way to it.
          onSuccess: () => setPending((list) => list.filter((p) => p.clientId !== item.clientId)),
          onError: (error) => {
            setPending((list) =>
              list.map((p) => (p.clientId === item.clientId ? { ...p, status: 'failed' } : p)),
            );
            errorToast(i18n._(msg`Failed to send message`), error, i18n._(msg`Please try again`));
          },
        },
      );
    },
    [peerId, send],
  );

  /** Sends `content` (already trimmed and not blank). */
  const add = (content: string) => {
    const item: OutboxItem = { clientId: newClientId(), content, status: 'sending' };
    setPending((list) => [...list, item]);
    deliver(item);
  };

  // The live event may bring a message before its send answers: then the echo gives way to it,
  // and the next message may go (the server has this one: they cannot cross). Counting its
  // unanswered send as "sending" blocked the next Enter with nothing on screen to say why.
  const delivered = useMemo(() => new Set(messages.map((m) => m.clientId).filter(Boolean)), [messages]);
  const echoes = pending.filter((p) => !delivered.has(p.clientId));
  const sending = echoes.some((p) => p.status === 'sending');

  return { echoes, sending, send: add, retry: deliver };
}
