/**
 * The "edited" mark of a post and the dialog it opens: the current text and every version an
 * edit replaced, newest first, each with when it was written. The list comes with the Edit
 * dialog's chunk (edit-post-dialog.tsx, PostHistory), not in the first page's JavaScript: the
 * dialog opens at once, saying it is loading, and a new chunk of its own would split the first
 * page's (rolldown/rolldown#10731, post-card-slot.tsx).
 */
import { Dialog } from 'radix-ui';
import { lazy, Suspense, useState } from 'react';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { Spinner } from '../../components/ui/spinner';
import type { Post } from './post-cache';
import { usePostRevisionsQuery } from './queries';

const PostHistory = lazy(() => import('./edit-post-dialog').then((m) => ({ default: m.PostHistory })));

export function EditedMark({ post }: { post: Post & { editedAt: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        className="shrink-0 rounded-sm underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        aria-label="Edited: show earlier versions"
      >
        edited
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
          <div className="grid gap-1.5 pr-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">Edit history</Dialog.Title>
            <Dialog.Description className="text-sm text-muted-foreground">
              Every version of this post by {post.userDisplayName}, newest first.
            </Dialog.Description>
          </div>
          {open ? <History post={post} /> : null}
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function History({ post }: { post: Post & { editedAt: string } }) {
  // Asked here, beside the chunk, not by it: a static import of posts/queries.ts from that chunk
  // split the first page's chunk (rolldown/rolldown#10731).
  const history = usePostRevisionsQuery(post.id);
  return (
    <Suspense
      fallback={
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading history...
        </p>
      }
    >
      <PostHistory post={post} history={history} />
    </Suspense>
  );
}
