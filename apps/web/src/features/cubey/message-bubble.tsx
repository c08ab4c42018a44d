/**
 * One message of the Cubey chat: the member's (with Edit and its versions, ‹ 1/2 ›, on the last
 * one) or Cubey's answer (its look-ups, then its words as Markdown, Stopped or the failure, and
 * Copy once written); "Thinking..." while an answer has no words yet.
 */
import { CUBEY_MESSAGE_MAX_LENGTH, cubeyEditInput } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight, Pencil, SendHorizontal } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { UserText } from '../../components/user-text';
import { CopyButton } from './copy-button';
import { CubeyLookups } from './cubey-lookups';
import type { Message } from './queries';

// Markdown (react-markdown, remark-gfm: most of the Cubes page's code) comes only with a member's
// chats, never for a visitor, who sees the login prompt: the page's first paint waited for it.
// The chat asks for it as it mounts (preloadMarkdown), beside the chats' first answers.
const loadMarkdown = () => import('./markdown');
const Markdown = lazy(() => loadMarkdown().then((module) => ({ default: module.Markdown })));

export function preloadMarkdown() {
  void loadMarkdown().catch(() => {
    // The answer that needs it asks again, and shows the failure.
  });
}

/** "Thinking..." while an answer has no words yet: alone, or under the look-ups made so far. */
export function Thinking() {
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
      <Spinner /> <Trans>Thinking...</Trans>
    </p>
  );
}

export function MessageBubble({
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
  if (message.role === 'user') {
    return (
      <UserMessage
        message={message}
        editable={editable}
        switchable={switchable}
        onEdit={onEdit}
        onShow={onShow}
      />
    );
  }
  return <AnswerMessage message={message} />;
}

function UserMessage({
  message,
  editable,
  switchable,
  onEdit,
  onShow,
}: {
  message: Message;
  editable: boolean;
  switchable: boolean;
  onEdit?: (message: string) => void;
  onShow?: (messageId: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const { t } = useLingui();
  const versions = message.versions ?? [];
  if (editing) {
    return (
      <EditMessageForm
        initial={message.content}
        onCancel={() => setEditing(false)}
        onSend={(text) => {
          setEditing(false);
          if (text !== message.content.trim()) onEdit?.(text);
        }}
      />
    );
  }
  return (
    <li className="grid justify-items-end gap-1">
      <div className="min-w-0 max-w-[85%] rounded-2xl rounded-ee-sm bg-primary px-3 py-2 text-primary-foreground">
        <UserText text={message.content} className="text-sm" />
      </div>
      {versions.length > 1 || editable ? (
        <div className="flex items-center gap-1 text-xs text-muted-foreground">
          {versions.length > 1 ? (
            <VersionSwitcher
              versions={versions}
              at={versions.indexOf(message.id)}
              enabled={switchable}
              onShow={onShow}
            />
          ) : null}
          {editable ? (
            <button
              type="button"
              aria-label={t`Edit your message`}
              onClick={() => setEditing(true)}
              className="inline-flex items-center gap-1 rounded-md px-1.5 py-1 hover:bg-accent hover:text-foreground"
            >
              <Pencil aria-hidden="true" className="size-3.5" /> <Trans>Edit</Trans>
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

const editForm = cubeyEditInput.pick({ message: true });

/**
 * The member's last message, being edited: Enter (or Send) resends it, Escape (or Cancel) leaves
 * it. An empty message gets the message of the server's schema (useZodForm).
 */
function EditMessageForm({
  initial,
  onCancel,
  onSend,
}: {
  initial: string;
  onCancel: () => void;
  onSend: (text: string) => void;
}) {
  const form = useZodForm(editForm, { message: initial });
  const { t } = useLingui();
  const error = form.errors.message;
  const errorId = `${form.fieldId('message')}-error`;
  return (
    <li className="flex justify-end">
      <form
        noValidate
        onSubmit={form.handleSubmit((data) => onSend(data.message))}
        className="grid w-full max-w-[85%] gap-2"
      >
        <Textarea
          id={form.fieldId('message')}
          aria-label={t`Edit your message`}
          value={form.values.message}
          maxLength={CUBEY_MESSAGE_MAX_LENGTH}
          rows={3}
          autoFocus
          onChange={(e) => form.setValue('message', e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onCancel();
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="max-h-48 min-h-16 resize-y"
        />
        {error ? (
          <p id={errorId} role="alert" className="text-sm text-destructive dark:text-red-400">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" size="sm" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" size="sm">
            <SendHorizontal aria-hidden="true" className="rtl:-scale-x-100" /> <Trans>Send</Trans>
          </Button>
        </div>
      </form>
    </li>
  );
}

/** ‹ 1/2 ›: the versions an edit left of a message, to switch between. */
function VersionSwitcher({
  versions,
  at,
  enabled,
  onShow,
}: {
  versions: readonly string[];
  at: number;
  enabled: boolean;
  onShow?: (messageId: string) => void;
}) {
  const { t } = useLingui();
  return (
    <nav aria-label={t`Versions of this message`} className="flex items-center">
      <button
        type="button"
        aria-label={t`Previous version`}
        disabled={!enabled || at <= 0}
        onClick={() => onShow?.(versions[at - 1]!)}
        className="rounded p-1 hover:bg-accent disabled:opacity-40"
      >
        <ChevronLeft aria-hidden="true" className="size-3.5 rtl:-scale-x-100" />
      </button>
      <span aria-live="polite">
        {at + 1}/{versions.length}
      </span>
      <button
        type="button"
        aria-label={t`Next version`}
        disabled={!enabled || at >= versions.length - 1}
        onClick={() => onShow?.(versions[at + 1]!)}
        className="rounded p-1 hover:bg-accent disabled:opacity-40"
      >
        <ChevronRight aria-hidden="true" className="size-3.5 rtl:-scale-x-100" />
      </button>
    </nav>
  );
}

function AnswerMessage({ message }: { message: Message }) {
  const { t } = useLingui();
  const lookups = message.lookups ?? [];
  const thinking = message.status === 'streaming' && message.content === '';
  // The server's own words when it has them (passed through as they are), else ours.
  const reason = message.error ?? t`the AI provider failed`;
  if (thinking && lookups.length === 0) {
    return (
      <li>
        <Thinking />
      </li>
    );
  }
  return (
    <li className="flex justify-start">
      <div className="min-w-0 max-w-[92%] rounded-2xl rounded-es-sm bg-muted/60 px-3 py-2">
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
            {message.content ? <Trans>Stopped</Trans> : <Trans>Stopped before Cubey answered</Trans>}
          </p>
        ) : null}
        {message.status === 'failed' ? (
          <p className="mt-1 text-xs text-destructive">
            <Trans>Cubey could not answer: {reason}</Trans>
          </p>
        ) : null}
        {message.status !== 'streaming' && message.content ? (
          <div className="mt-1 flex justify-end">
            <CopyButton text={message.content} label={t`Copy answer`} />
          </div>
        ) : null}
      </div>
    </li>
  );
}
