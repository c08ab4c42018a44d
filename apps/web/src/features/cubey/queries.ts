/**
 * Cubey's queries: the member's chats, a chat's messages, the chat search, the tokens left today
 * and what the server has set up; the answer being written, followed over the socket
 * (`cubey.onAnswer`) into the messages cache; the chat list kept live (`cubey.onSessions`); and
 * the changes (send, edit and resend, regenerate, show another version, stop, rename, delete,
 * restore), each with its cache edits here. The UI state (which chat is shown, the draft) stays
 * in use-cubey-chat.ts and the components, which pass their own toasts and steps as callbacks.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { useRef } from 'react';
import { trpc } from '../../lib/trpc';

export type Message = RouterOutputs['cubey']['messages'][number];

/** The member's chats, most recent first. */
export function useChatSessionsQuery() {
  return trpc.cubey.sessions.useQuery();
}

/** The messages of `sessionId`; nothing is asked for null (a chat not started yet). */
export function useChatMessagesQuery(sessionId: string | null) {
  return trpc.cubey.messages.useQuery({ sessionId: sessionId ?? '' }, { enabled: !!sessionId });
}

/** The member's chats that match `query`; nothing is asked for an empty one. */
export function useChatSearchQuery(query: string) {
  return trpc.cubey.search.useQuery({ query }, { enabled: query.length > 0 });
}

/** The member's Cubey tokens today. */
export function useCubeyUsageQuery() {
  return trpc.cubey.usage.useQuery(undefined, { staleTime: 10_000 });
}

/** What this server has set up (a model for Cubey, a media generation service): asked once. */
export function useCubeySetupQuery() {
  return trpc.cubey.setup.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY, retry: false });
}

/** Follows the answer being written in `sessionId`, writing each piece into the messages cache. */
export function useAnswerStream(sessionId: string | null, streaming: Message | undefined) {
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
export function useLiveSessions(onDeleted: (sessionId: string) => void) {
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

type SendOptions = NonNullable<Parameters<typeof trpc.cubey.send.useMutation>[0]>;
type RegenerateOptions = NonNullable<Parameters<typeof trpc.cubey.regenerate.useMutation>[0]>;
type EditOptions = NonNullable<Parameters<typeof trpc.cubey.edit.useMutation>[0]>;
type SwitchVersionOptions = NonNullable<Parameters<typeof trpc.cubey.switchVersion.useMutation>[0]>;
type StopOptions = NonNullable<Parameters<typeof trpc.cubey.stop.useMutation>[0]>;
type RenameOptions = NonNullable<Parameters<typeof trpc.cubey.rename.useMutation>[0]>;
type RestoreOptions = NonNullable<Parameters<typeof trpc.cubey.restore.useMutation>[0]>;
type DeleteOptions = NonNullable<Parameters<typeof trpc.cubey.delete.useMutation>[0]>;

/** Send a message (starting a chat when it has no session): the message and the answer begun. */
export function useSendChatMessageMutation(options: SendOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.cubey.send.useMutation({
    ...options,
    onSuccess: (...args) => {
      const [started] = args;
      utils.cubey.messages.setData({ sessionId: started.sessionId }, (old) => [
        ...(old ?? []),
        ...(started.message ? [started.message] : []),
        started.reply,
      ]);
      const result = options.onSuccess?.(...args);
      void utils.cubey.sessions.invalidate();
      return result;
    },
  });
}

/** Write the last answer again: the new one takes the old one's place. */
export function useRegenerateAnswerMutation(options: RegenerateOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.cubey.regenerate.useMutation({
    ...options,
    onSuccess: (...args) => {
      const [started] = args;
      utils.cubey.messages.setData({ sessionId: started.sessionId }, (old) => [
        ...(old ?? []).filter((m, i, all) => !(i === all.length - 1 && m.role === 'assistant')),
        started.reply,
      ]);
      return options.onSuccess?.(...args);
    },
  });
}

/** Edit the member's last message and send it again: it and the answer after it are replaced. */
export function useEditChatMessageMutation(options: EditOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.cubey.edit.useMutation({
    ...options,
    onSuccess: (...args) => {
      const [started] = args;
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
      return options.onSuccess?.(...args);
    },
  });
}

/** Show another version of the member's last message: the chat of `sessionId` as it then was. */
export function useSwitchVersionMutation(sessionId: string | null, options: SwitchVersionOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.cubey.switchVersion.useMutation({
    ...options,
    onSuccess: (...args) => {
      if (sessionId) utils.cubey.messages.setData({ sessionId }, args[0].messages);
      return options.onSuccess?.(...args);
    },
  });
}

/** Stop the answer being written (what it has so far is kept; the socket says so). */
export function useStopAnswerMutation(options: StopOptions = {}) {
  return trpc.cubey.stop.useMutation(options);
}

export function useRenameChatMutation(options: RenameOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.cubey.rename.useMutation({
    ...options,
    onSuccess: (...args) => {
      const result = options.onSuccess?.(...args);
      void utils.cubey.sessions.invalidate();
      return result;
    },
  });
}

/** Bring a deleted chat back (the Undo of Delete). */
export function useRestoreChatMutation(options: RestoreOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.cubey.restore.useMutation({
    ...options,
    onSuccess: (...args) => {
      void utils.cubey.sessions.invalidate();
      return options.onSuccess?.(...args);
    },
  });
}

export function useDeleteChatMutation(options: DeleteOptions = {}) {
  const utils = trpc.useUtils();
  return trpc.cubey.delete.useMutation({
    ...options,
    onSuccess: (...args) => {
      const result = options.onSuccess?.(...args);
      void utils.cubey.sessions.invalidate();
      return result;
    },
  });
}
