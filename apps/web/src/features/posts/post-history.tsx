/**
 * The "edited" mark of a post and the dialog it opens: the current text and every version an
 * edit replaced, newest first, each with when it was written.
 */
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { RelativeTime } from '../../components/relative-time';
import { Button } from '../../components/ui/button';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { Spinner } from '../../components/ui/spinner';
import { UserText } from '../../components/user-text';
import type { Post } from './post-cache';
import { usePostRevisionsQuery } from './queries';

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
  const history = usePostRevisionsQuery(post.id);
  if (history.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> Loading history...
      </p>
    );
  }
  if (history.isError) {
    return (
      <p className="text-sm text-destructive">
        {history.error.data?.code === 'NOT_FOUND'
          ? 'This post is no longer available.'
          : 'Could not load the history.'}{' '}
        {history.error.data?.code === 'NOT_FOUND' ? null : (
          <Button variant="link" className="h-auto p-0" onClick={() => void history.refetch()}>
            Retry
          </Button>
        )}
      </p>
    );
  }
  const versions = [
    { id: 'current', content: post.content, writtenAt: post.editedAt, label: 'Current' },
    ...history.data.revisions.map((r, i) => ({
      id: r.id,
      content: r.content,
      writtenAt: r.writtenAt,
      label: i === history.data.revisions.length - 1 ? 'Original' : 'Earlier',
    })),
  ];
  return (
    <ol aria-label="Versions" className="grid gap-3">
      {versions.map((version) => (
        <li key={version.id} className="grid gap-1 rounded-lg border bg-muted/40 p-3">
          <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
            <span className="font-medium text-foreground">{version.label}</span>
            <span aria-hidden="true">·</span>
            <RelativeTime date={version.writtenAt} />
          </p>
          <UserText text={version.content} className="text-sm" />
        </li>
      ))}
    </ol>
  );
}
