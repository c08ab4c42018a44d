/**
 * The author's actions on their own post, behind a "Post actions" menu: Edit (in the first 15
 * minutes; the text it replaces stays in the post's history) and Delete (its likes and comments
 * go with it). Each opens a dialog; nothing is lost by one click.
 */
import { editPostInput, POST_EDIT_WINDOW_MS, POST_MAX_LENGTH } from '@cubes/api/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { MoreHorizontal, Pencil, Trash2, X } from 'lucide-react';
import { Dialog, DropdownMenu } from 'radix-ui';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { type Post, patchPost, removePost } from './post-cache';

const itemClasses =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-2 text-sm outline-none transition-colors ' +
  'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4';

/** Whether the author may still edit the post (the server has the last word). */
export function canEdit(post: Pick<Post, 'createdAt'>, now = Date.now()): boolean {
  return now - new Date(post.createdAt).getTime() < POST_EDIT_WINDOW_MS;
}

export function PostActions({ post }: { post: Post }) {
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  // Read when the menu renders (it renders on opening), so a post that aged past the window loses Edit.
  const editable = canEdit(post);
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          aria-label="Post actions"
          className="-mr-1 ml-auto inline-flex size-9 shrink-0 items-center justify-center self-start rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-ring data-[state=open]:bg-accent"
        >
          <MoreHorizontal aria-hidden="true" className="size-5" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            className="menu-content z-50 min-w-44 overflow-hidden rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
          >
            {editable ? (
              <DropdownMenu.Item className={itemClasses} onSelect={() => setDialog('edit')}>
                <Pencil aria-hidden="true" className="text-muted-foreground" />
                Edit
              </DropdownMenu.Item>
            ) : null}
            <DropdownMenu.Item
              className={`${itemClasses} text-destructive data-[highlighted]:text-destructive`}
              onSelect={() => setDialog('delete')}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <DeletePostDialog
        post={post}
        open={dialog === 'delete'}
        onOpenChange={(o) => setDialog(o ? 'delete' : null)}
      />
      {dialog === 'edit' ? <EditPostDialog post={post} onClose={() => setDialog(null)} /> : null}
    </>
  );
}

function DeletePostDialog({
  post,
  open,
  onOpenChange,
}: {
  post: Post;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const remove = trpc.posts.delete.useMutation({
    onSuccess: () => {
      onOpenChange(false);
      removePost(queryClient, post.id);
      toast({ title: 'Post deleted' });
    },
    onError: (error) => {
      onOpenChange(false);
      errorToast('Failed to delete post', error);
      // Already gone (deleted in another tab): nothing left to show.
      if (error.data?.code === 'NOT_FOUND') removePost(queryClient, post.id);
    },
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete this post?"
      description="Its likes and comments are deleted with it. This cannot be undone."
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={() => remove.mutate({ postId: post.id })}
    />
  );
}

function EditPostDialog({ post, onClose }: { post: Post; onClose: () => void }) {
  const queryClient = useQueryClient();
  const fieldId = useId();
  const [text, setText] = useState(post.content);
  const [error, setError] = useState<string | null>(null);
  const edit = trpc.posts.edit.useMutation({
    onSuccess: ({ post: saved }) => {
      patchPost(queryClient, saved.id, { content: saved.content, editedAt: saved.editedAt });
      onClose();
      toast({ title: 'Post updated' });
    },
    onError: (failure) => {
      errorToast('Failed to edit post', failure);
    },
  });
  const length = text.trim().length;
  const unchanged = text.trim() === post.content;
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (unchanged || edit.isPending) return;
    const parsed = editPostInput.safeParse({ postId: post.id, content: text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid post');
      return;
    }
    edit.mutate(parsed.data);
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !edit.isPending && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
          <div className="grid gap-1.5 pr-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">Edit post</Dialog.Title>
            <Dialog.Description className="text-sm text-muted-foreground">
              Posts can be edited for 15 minutes. The post shows it was edited, and anyone can see the earlier
              text.
            </Dialog.Description>
          </div>
          <form onSubmit={save} className="grid gap-3">
            <label htmlFor={fieldId} className="sr-only">
              Post text
            </label>
            <Textarea
              id={fieldId}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                if (error) setError(null);
              }}
              rows={5}
              className="field-sizing-content min-h-32 max-h-[50dvh]"
              aria-invalid={error ? true : undefined}
              aria-describedby={`${fieldId}-hint`}
            />
            <div id={`${fieldId}-hint`} className="flex justify-between gap-3 text-xs">
              <span className="text-destructive">{error}</span>
              <span
                className={
                  length > POST_MAX_LENGTH
                    ? 'text-destructive tabular-nums'
                    : 'text-muted-foreground tabular-nums'
                }
              >
                {length}/{POST_MAX_LENGTH}
              </span>
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button variant="outline" disabled={edit.isPending}>
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={unchanged || length === 0 || edit.isPending}>
                {edit.isPending ? <Spinner /> : null}
                Save
              </Button>
            </div>
          </form>
          <Dialog.Close
            aria-label="Close"
            disabled={edit.isPending}
            className="absolute top-4 right-4 rounded-md p-1 text-muted-foreground opacity-80 transition-opacity hover:opacity-100 focus-visible:outline-2 focus-visible:outline-ring"
          >
            <X aria-hidden="true" className="size-4" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
