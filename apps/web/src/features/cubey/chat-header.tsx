/**
 * The open chat's title with Rename and Delete. Rename edits the title in place (Enter saves,
 * Escape cancels); Delete asks first, then shows a toast with Undo, which brings the chat back
 * as it was. Both changes reach the member's other tabs through cubey.onSessions.
 */
import { CHAT_TITLE_MAX_LENGTH } from '@cubes/api/schemas';
import { Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
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
  const [draft, setDraft] = useState(session.title);
  const [confirming, setConfirming] = useState(false);

  const rename = useRenameChatMutation({
    onSuccess: () => setEditing(false),
    onError: (error) => errorToast('Failed to rename the chat', error),
  });
  const restore = useRestoreChatMutation({
    onSuccess: ({ session: back }) => {
      onRestored(back.id);
      toast({ title: 'Chat restored' });
    },
    onError: (error) => errorToast('Failed to restore the chat', error),
  });
  const remove = useDeleteChatMutation({
    onSuccess: (_, { sessionId }) => {
      setConfirming(false);
      onDeleted();
      const shown = toast({
        title: 'Chat deleted',
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
            Undo
          </button>
        ),
      });
    },
    onError: (error) => {
      setConfirming(false);
      errorToast('Failed to delete the chat', error);
    },
  });

  const save = (event: FormEvent) => {
    event.preventDefault();
    const title = draft.trim();
    if (!title || title === session.title) {
      setEditing(false);
      return;
    }
    rename.mutate({ sessionId: session.id, title });
  };

  return (
    <div className="flex min-h-9 min-w-0 items-center gap-1">
      {editing ? (
        <form onSubmit={save} className="flex min-w-0 flex-1 items-center gap-2">
          <Input
            aria-label="Chat title"
            value={draft}
            maxLength={CHAT_TITLE_MAX_LENGTH}
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setEditing(false);
            }}
            className="h-9 min-w-0 flex-1"
          />
          <Button type="submit" size="sm" disabled={rename.isPending || !draft.trim()}>
            Save
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <>
          <h3 className="user-text min-w-0 flex-1 truncate text-sm font-semibold" title={session.title}>
            {session.title}
          </h3>
          <Button
            variant="ghost"
            size="sm"
            aria-label="Rename this chat"
            onClick={() => {
              setDraft(session.title);
              setEditing(true);
            }}
          >
            <Pencil aria-hidden="true" />
            <span className="hidden sm:inline">Rename</span>
          </Button>
          <Button variant="ghost" size="sm" aria-label="Delete this chat" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" />
            <span className="hidden sm:inline">Delete</span>
          </Button>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this chat?"
        description={`“${session.title}” and its messages go. You can undo it for a little while.`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ sessionId: session.id })}
      />
    </div>
  );
}
