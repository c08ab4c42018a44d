/**
 * The state of the Cubey chat (cubey-chat.tsx renders it): which chat is shown (the most recent,
 * one chosen, or a new one not started yet), its messages with the answer being written followed
 * over the socket (`cubey.onAnswer`, written into the messages cache), the chat list kept live
 * (`cubey.onSessions`), the draft (kept per chat, lib/drafts.ts) and the actions: send, edit and
 * resend, show another version, regenerate, stop.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { type FormEvent, useRef, useState } from 'react';
import { discardDraft, draftPlaces, useDraft } from '../../lib/drafts';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';

export type Message = RouterOutputs['cubey']['messages'][number];

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

export function useCubeyChat() {
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

  const last = list.at(-1);
  return {
    sessions,
    chosen,
    choose: setChosen,
    sessionId,
    current,
    messages,
    list,
    last,
    streaming,
    draft,
    setDraft,
    canSend,
    busy,
    submit,
    isSending: send.isPending,
    edit: (messageId: string, message: string) => edit.mutate({ messageId, message }),
    showVersion: (messageId: string) => switchVersion.mutate({ messageId }),
    regenerate: () => sessionId && regenerate.mutate({ sessionId }),
    stop: () => streaming && stop.mutate({ messageId: streaming.id }),
    isStopping: stop.isPending,
    /** The last answer, finished: the one Regenerate replaces. */
    lastAnswer: last?.role === 'assistant' && last.status !== 'streaming' ? last : null,
    /** The member's last message: the one that can be edited, and its versions shown. */
    lastQuestionId: list.findLast((m) => m.role === 'user')?.id,
  };
}

export type CubeyChatState = ReturnType<typeof useCubeyChat>;
