/**
 * The open chat's title with Rename and Delete. Rename edits the title in place (Enter saves,
 * Escape cancels; an empty or too long title gets the message of the server's schema, through
 * useZodForm); Delete asks first, then shows a toast with Undo, which brings the chat back
 * as it was. Both changes reach the member's other tabs through cubey.onSessions.
 */
import { CHAT_TITLE_MAX_LENGTH, cubeyRenameInput } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { ConfirmDialogOnDemand } from '../../components/ui/confirm-dialog-on-demand';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { useDeleteChatMutation, useRenameChatMutation, useRestoreChatMutation } from './queries';

export function ChatHeader({
  session,
  onDeleted,
  onRestored,
}: {
  session: { id: string; title: string };
  onDeleted: () => void;
  onRestored: (id: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const { t } = useLingui();

  const rename = useRenameChatMutation({
    onSuccess: () => setEditing(false),
    onError: (error) => errorToast(t`Failed to rename the chat`, error),
  });
  const restore = useRestoreChatMutation({
    onSuccess: ({ session: back }) => {
      onRestored(back.id);
      toast({ title: t`Chat restored` });
    },
    onError: (error) => errorToast(t`Failed to restore the chat`, error),
  });
  const remove = useDeleteChatMutation({
    onSuccess: (_, { sessionId }) => {
      setConfirming(false);
      onDeleted();
      const shown = toast({
        title: t`Chat deleted`,
        duration: 10_000,
        description: (
          <button
            type="button"
            className="font-semibold text-primary underline underline-offset-2"
            onClick={() => {
              shown.dismiss();
              restore.mutate({ sessionId });
            }}
          >
            <Trans>Undo</Trans>
          </button>
        ),
      });
    },
    onError: (error) => {
      setConfirming(false);
      errorToast(t`Failed to delete the chat`, error);
    },
  });

  const title = session.title;
  return (
    <div className="flex min-h-9 min-w-0 items-center gap-1">
      {editing ? (
        <RenameForm
          title={session.title}
          pending={rename.isPending}
          onSave={(title) => rename.mutate({ sessionId: session.id, title })}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <h3 className="user-text min-w-0 flex-1 truncate text-sm font-semibold" title={session.title}>
            {session.title}
          </h3>
          <Button variant="ghost" size="sm" aria-label={t`Rename this chat`} onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" />
            <span className="hidden sm:inline">
              <Trans>Rename</Trans>
            </span>
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-label={t`Delete this chat`}
            onClick={() => setConfirming(true)}
          >
            <Trash2 aria-hidden="true" />
            <span className="hidden sm:inline">
              <Trans>Delete</Trans>
            </span>
          </Button>
        </>
      )}
      <ConfirmDialogOnDemand
        open={confirming}
        onOpenChange={setConfirming}
        title={t`Delete this chat?`}
        description={t`“${title}” and its messages go. You can undo it for a little while.`}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ sessionId: session.id })}
      />
    </div>
  );
}

const titleForm = cubeyRenameInput.pick({ title: true });

/** Mounted while renaming: it starts from the current title. An unchanged title saves nothing. */
function RenameForm({
  title,
  pending,
  onSave,
  onCancel,
}: {
  title: string;
  pending: boolean;
  onSave: (title: string) => void;
  onCancel: () => void;
}) {
  const form = useZodForm(titleForm, { title });
  const { t } = useLingui();
  const error = form.errors.title;
  const errorId = `${form.fieldId('title')}-error`;
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((data) => (data.title === title ? onCancel() : onSave(data.title)))}
      className="grid min-w-0 flex-1 gap-1"
    >
      <div className="flex min-w-0 items-center gap-2">
        <Input
          id={form.fieldId('title')}
          aria-label={t`Chat title`}
          value={form.values.title}
          maxLength={CHAT_TITLE_MAX_LENGTH}
          autoFocus
          onChange={(e) => form.setValue('title', e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onCancel();
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="h-9 min-w-0 flex-1"
        />
        <Button type="submit" size="sm" disabled={pending}>
          <Trans>Save</Trans>
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive dark:text-red-400">
          {error}
        </p>
      ) : null}
    </form>
  );
}
