/**
 * The state of the Cubey chat (cubey-chat.tsx renders it): which chat is shown (the most recent,
 * one chosen, or a new one not started yet), its messages with the answer being written followed
 * over the socket, the chat list kept live, the draft (kept per chat, lib/drafts.ts) and the
 * actions: send, edit and resend, show another version, regenerate, stop. The queries, the
 * subscriptions and their cache edits are in queries.ts.
 */
import { cubeyChatInput } from '@cubes/api/schemas';
import { useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { useZodForm } from '../../components/form/use-zod-form';
import { discardDraft, draftPlaces, useDraft } from '../../lib/drafts';
import { errorToast } from '../../lib/error-toast';
import {
  useAnswerStream,
  useChatMessagesQuery,
  useChatSessionsQuery,
  useEditChatMessageMutation,
  useLiveSessions,
  useRegenerateAnswerMutation,
  useSendChatMessageMutation,
  useStopAnswerMutation,
  useSwitchVersionMutation,
} from './queries';

export function useCubeyChat() {
  const { t } = useLingui();
  const sessions = useChatSessionsQuery();
  // null: the most recent chat; 'new': a chat not started yet.
  const [chosen, setChosen] = useState<string | null>(null);
  const sessionId = chosen === 'new' ? null : (chosen ?? sessions.data?.[0]?.id ?? null);
  useLiveSessions((deleted) => {
    if (deleted === sessionId) setChosen(null);
  });
  const current = sessions.data?.find((s) => s.id === sessionId);
  const messages = useChatMessagesQuery(sessionId);
  const list = sessionId ? (messages.data ?? []) : [];
  const streaming = list.find((m) => m.role === 'assistant' && m.status === 'streaming');
  useAnswerStream(sessionId, streaming);

  // Kept across pages until sent, per chat (lib/drafts.ts).
  const [draft, setDraft] = useDraft(draftPlaces.cubey(sessionId));
  // Checked with the send's own schema: an empty or too long message gets its words.
  const form = useZodForm(
    cubeyChatInput,
    { message: '' },
    {
      values: { message: draft },
      onValuesChange: ({ message }) => setDraft(message),
      toInput: ({ message }) => ({ message, sessionId }),
    },
  );
  const send = useSendChatMessageMutation({
    onSuccess: (started, sent) => {
      setChosen(started.sessionId);
      discardDraft(draftPlaces.cubey(sent.sessionId ?? null));
      form.reset();
    },
    onError: (error) => errorToast(t`Failed to send message`, error),
  });
  const regenerate = useRegenerateAnswerMutation({
    onError: (error) => errorToast(t`Failed to regenerate the answer`, error),
  });
  const edit = useEditChatMessageMutation({
    onError: (error) => errorToast(t`Failed to send the edited message`, error),
  });
  const switchVersion = useSwitchVersionMutation(sessionId, {
    onError: (error) => errorToast(t`Failed to show that version`, error),
  });
  const stop = useStopAnswerMutation({
    onError: (error) => errorToast(t`Failed to stop the answer`, error),
  });

  const busy =
    send.isPending || regenerate.isPending || edit.isPending || switchVersion.isPending || !!streaming;
  const canSend = draft.trim().length > 0 && !busy;
  const sendDraft = form.handleSubmit((input) => send.mutate(input));
  /** Sends the draft as the schema has it; one it refuses says why; nothing while Cubey is busy. */
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!busy) sendDraft(event);
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
    setDraft: (value: string) => form.setValue('message', value),
    /** The draft's id, and what the schema says of it (after a submit, then while typing). */
    draftId: form.fieldId('message'),
    draftError: form.errors.message ?? form.errors.root,
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
