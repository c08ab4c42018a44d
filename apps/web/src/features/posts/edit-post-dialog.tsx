/**
 * A post's edits. The author's Edit dialog for their own post (from the "Post actions" menu, in
 * the first 15 minutes): the new text, its content warning (emptied: none), and each image's
 * description and "Mark as sensitive" box, checked with the procedure's own schema. The text it
 * replaces stays in the post's history; a new description, flag or warning does not mark it
 * edited. And that history (PostHistory, shown by the "edited" mark, post-history.tsx), here
 * so that it loads with this chunk rather than with the first page.
 */
import { CONTENT_WARNING_MAX, editPostInput, POST_MAX_LENGTH } from '@cubes/api/schemas';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from 'radix-ui';
import { type FormEvent, useId, useState } from 'react';
import { useZodForm } from '../../components/form/use-zod-form';
import { RelativeTime } from '../../components/relative-time';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { UserText } from '../../components/user-text';
import { MentionComposer } from '../mentions/mention-composer';
import { isChoosingMention } from '../mentions/mention-textarea';
import { AltReminder, DescribedImage } from './composer-images';
import { useEditPostMutation } from './edit-queries';
import type { Post } from './post-cache';
import type { usePostRevisionsQuery } from './queries';

export default function EditPostDialog({ post, onClose }: { post: Post; onClose: () => void }) {
  const [alts, setAlts] = useState(() => post.images.map((image) => image.alt ?? ''));
  const altsChanged = alts.some((alt, i) => alt.trim() !== (post.images[i]?.alt ?? ''));
  const [sensitive, setSensitive] = useState(() => post.images.map((image) => image.sensitive));
  const sensitiveChanged = sensitive.some((on, i) => on !== post.images[i]?.sensitive);
  const [warning, setWarning] = useState(post.contentWarning ?? '');
  const warningChanged = warning.trim() !== (post.contentWarning ?? '');
  const warningId = useId();
  const { t } = useLingui();
  const form = useZodForm(
    editPostInput,
    { content: post.content },
    {
      toInput: ({ content }) => ({
        postId: post.id,
        content,
        ...(altsChanged ? { alts } : {}),
        ...(sensitiveChanged ? { sensitive } : {}),
        ...(warningChanged ? { contentWarning: warning } : {}),
      }),
    },
  );
  const text = form.values.content;
  const edit = useEditPostMutation(() => {
    onClose();
    toast({ title: t`Post updated` });
  });
  const length = text.trim().length;
  const unchanged = text.trim() === post.content && !altsChanged && !sensitiveChanged && !warningChanged;
  const send = form.handleSubmit((changes) => edit.mutate(changes));
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (unchanged || edit.isPending) return;
    send(event);
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !edit.isPending && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content
          // Escape in the @ list closes the list, not the dialog.
          onEscapeKeyDown={(event) => {
            if (isChoosingMention(event.target)) event.preventDefault();
          }}
          className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl"
        >
          <div className="grid gap-1.5 pe-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">
              <Trans>Edit post</Trans>
            </Dialog.Title>
            <Dialog.Description className="text-sm text-muted-foreground">
              <Trans>
                Posts can be edited for 15 minutes. The post shows it was edited, and anyone can see the
                earlier text.
              </Trans>
            </Dialog.Description>
          </div>
          <form onSubmit={save} noValidate className="grid gap-3">
            <div className="grid gap-1.5">
              <Label htmlFor={warningId}>
                <Trans>Content warning</Trans>
              </Label>
              <Input
                id={warningId}
                value={warning}
                onChange={(event) => setWarning(event.target.value)}
                maxLength={CONTENT_WARNING_MAX}
                readOnly={edit.isPending}
                placeholder={t`None: the post shows at once`}
              />
            </div>
            <MentionComposer
              id={form.fieldId('content')}
              label={t`Post text`}
              value={text}
              enabled
              onValueChange={(value) => form.setValue('content', value)}
              rows={5}
              maxLength={POST_MAX_LENGTH}
              counterFrom={0}
              error={form.errors.content ?? form.errors.root}
              className="field-sizing-content min-h-32 max-h-[50dvh]"
            />
            {post.images.length > 0 ? (
              <div className="grid gap-2">
                <ul aria-label={t`Images`} className="grid gap-2">
                  {post.images.map((image, index) => (
                    <DescribedImage
                      key={image.url}
                      src={image.thumbUrl}
                      index={index}
                      alt={alts[index] ?? ''}
                      onAltChange={(alt) => setAlts((now) => now.map((old, i) => (i === index ? alt : old)))}
                      sensitive={sensitive[index] === true}
                      onSensitiveChange={(on) =>
                        setSensitive((now) => now.map((old, i) => (i === index ? on : old)))
                      }
                      disabled={edit.isPending}
                    />
                  ))}
                </ul>
                <AltReminder alts={alts} />
              </div>
            ) : null}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button variant="outline" disabled={edit.isPending}>
                  <Trans>Cancel</Trans>
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={unchanged || length === 0 || edit.isPending}>
                {edit.isPending ? <Spinner /> : null}
                <Trans>Save</Trans>
              </Button>
            </div>
          </form>
          <DialogCloseButton disabled={edit.isPending} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The current text and every version an edit replaced, newest first. */
/** The question before a post is deleted (post-actions.tsx's menu): its likes and comments go with it. */
export function DeletePostDialog({
  pending,
  onDelete,
  onClose,
}: {
  pending: boolean;
  onDelete: () => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t`Delete this post?`}
      description={t`Its likes and comments are deleted with it. This cannot be undone.`}
      confirmLabel={t`Delete`}
      pending={pending}
      onConfirm={onDelete}
    />
  );
}

/**
 * The dialog of a post's history, opened by its "edited" mark (post-history.tsx), which asks for
 * the versions (`history`) and closes it (`close`). Focus goes back to the mark when it closes.
 */
export function PostHistoryDialog({
  post,
  history,
  close,
}: {
  post: Post & { editedAt: string };
  history: ReturnType<typeof usePostRevisionsQuery>;
  close: () => void;
}) {
  const name = post.userDisplayName;
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
          <div className="grid gap-1.5 pe-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">
              <Trans>Edit history</Trans>
            </Dialog.Title>
            <Dialog.Description className="text-sm text-muted-foreground">
              <Trans>Every version of this post by {name}, newest first.</Trans>
            </Dialog.Description>
          </div>
          <PostHistory post={post} history={history} />
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A version's label in the history (the composer's "Earlier" button is another message). */
const ORIGINAL = msg({ message: 'Original', context: 'post version' });
const EARLIER = msg({ message: 'Earlier', context: 'post version' });

export function PostHistory({
  post,
  history,
}: {
  post: Post & { editedAt: string };
  /** Asked by the mark (post-history.tsx): posts/queries.ts stays out of this chunk's imports. */
  history: ReturnType<typeof usePostRevisionsQuery>;
}) {
  const { i18n, t } = useLingui();
  if (history.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> <Trans>Loading history...</Trans>
      </p>
    );
  }
  if (history.isError) {
    return (
      <p className="text-sm text-destructive">
        {history.error.data?.code === 'NOT_FOUND' ? (
          <Trans>This post is no longer available.</Trans>
        ) : (
          <Trans>Could not load the history.</Trans>
        )}{' '}
        {history.error.data?.code === 'NOT_FOUND' ? null : (
          <Button variant="link" className="h-auto p-0" onClick={() => void history.refetch()}>
            <Trans>Retry</Trans>
          </Button>
        )}
      </p>
    );
  }
  const versions = [
    { id: 'current', content: post.content, writtenAt: post.editedAt, label: t`Current` },
    ...history.data.revisions.map((r, i) => ({
      id: r.id,
      content: r.content,
      writtenAt: r.writtenAt,
      label: i18n._(i === history.data.revisions.length - 1 ? ORIGINAL : EARLIER),
    })),
  ];
  return (
    <ol aria-label={t`Versions`} className="grid gap-3">
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
