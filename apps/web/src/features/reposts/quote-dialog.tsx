/**
 * Quote a post: a dialog with the new post's text (checked with the procedure's own schema) above
 * the quoted post's card. Loaded when opened, so zod stays out of the first page's bundle.
 */

import { createPostInput, POST_MAX_LENGTH } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from 'radix-ui';
import type { FormEvent } from 'react';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { MentionComposer } from '../mentions/mention-composer';
import { isChoosingMention } from '../mentions/mention-textarea';
import { useCreatePostMutation } from '../posts/composer-queries';
import type { Post } from '../posts/post-cache';
import { QuoteCard } from './quote-card';

export default function QuoteDialog({ post, onClose }: { post: Post; onClose: () => void }) {
  const form = useZodForm(
    createPostInput,
    { content: '' },
    { toInput: ({ content }) => ({ content, quotePostId: post.id }) },
  );
  const text = form.values.content;
  const { t } = useLingui();
  const name = post.userDisplayName;
  const create = useCreatePostMutation(() => {
    onClose();
    toast({ title: t`Post created successfully!` });
  });
  const send = form.handleSubmit((input) => create.mutate(input));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    send(event);
  };
  const quoted = {
    id: post.id,
    userId: post.userId,
    username: post.username,
    userDisplayName: post.userDisplayName,
    userAvatarUrl: post.userAvatarUrl,
    content: post.content,
    contentWarning: post.contentWarning,
    imageUrl: post.images[0]?.thumbUrl ?? null,
    imageSensitive: post.images[0]?.sensitive ?? false,
    createdAt: post.createdAt,
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !create.isPending && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content
          onEscapeKeyDown={(event) => {
            if (isChoosingMention(event.target)) event.preventDefault();
          }}
          className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl"
        >
          <div className="grid gap-1.5 pe-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">
              <Trans>Quote post</Trans>
            </Dialog.Title>
            <Dialog.Description className="text-sm text-muted-foreground">
              <Trans>Your post shows {name}'s under your words, with a link to it.</Trans>
            </Dialog.Description>
          </div>
          <form onSubmit={submit} noValidate className="grid gap-3">
            <MentionComposer
              id={form.fieldId('content')}
              label={t`Your post`}
              value={text}
              enabled
              onValueChange={(value) => form.setValue('content', value)}
              rows={4}
              maxLength={POST_MAX_LENGTH}
              counterFrom={0}
              error={form.errors.content ?? form.errors.root}
              className="field-sizing-content min-h-28 max-h-[40dvh]"
            />
            <QuoteCard quote={quoted} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button variant="outline" disabled={create.isPending}>
                  <Trans>Cancel</Trans>
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={text.trim().length === 0 || create.isPending}>
                {create.isPending ? <Spinner /> : null}
                <Trans>Post</Trans>
              </Button>
            </div>
          </form>
          <DialogCloseButton disabled={create.isPending} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
