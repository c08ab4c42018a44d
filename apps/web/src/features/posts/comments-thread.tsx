/**
 * The comments under a post: oldest first, in pages of 50 with 'Show more comments', and a box to
 * add one (login needed to send). A new comment goes to the end of what is loaded. A comment's
 * author, and the post's author, can delete it (after a confirmation).
 */
import { COMMENT_MAX_LENGTH } from '@cubes/api/rules';
import { Trans, useLingui } from '@lingui/react/macro';
import { Trash2 } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useZodForm } from '../../components/form/use-zod-form';
import { Handle } from '../../components/handle';
import { RelativeTime } from '../../components/relative-time';
import { Button } from '../../components/ui/button';
import { ConfirmDialogOnDemand } from '../../components/ui/confirm-dialog-on-demand';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { UserAvatar } from '../../components/user-avatar';
import { UserText } from '../../components/user-text';
import { discardDraft, draftPlaces, useDraft } from '../../lib/drafts';
import { lazySchema } from '../../lib/lazy-schema';
import { useAuth } from '../auth/auth-provider';
import { useCommentsQuery, useCreateCommentMutation, useDeleteCommentMutation } from '../comments/queries';
import { MentionComposer } from '../mentions/mention-composer';
import { ReportButton } from '../reports/report-button';
import { loginToasts } from './login-toasts';
import { flattenPages } from './post-cache';

/** The comment is checked with the procedure's own schema, loaded with zod once it is needed. */
const loadCreateCommentSchema = lazySchema('createCommentInput');

export function CommentsThread({
  postId,
  postAuthorId,
  id,
}: {
  postId: string;
  /** the post's author may delete any comment under it */
  postAuthorId: string;
  id: string;
}) {
  const { user, status } = useAuth();
  const { t } = useLingui();
  // Kept across pages until sent, per post (lib/drafts.ts); checked with the procedure's schema.
  const [text, setText] = useDraft(draftPlaces.comment(postId));
  const form = useZodForm(
    loadCreateCommentSchema,
    { content: '' },
    {
      values: { content: text },
      onValuesChange: ({ content }) => setText(content),
      toInput: ({ content }) => ({ postId, content }),
    },
  );
  const comments = useCommentsQuery(postId);
  const list = useMemo(() => flattenPages(comments.data?.pages), [comments.data]);

  const create = useCreateCommentMutation(postId, () => {
    discardDraft(draftPlaces.comment(postId));
    form.reset();
  });

  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useDeleteCommentMutation(postId, () => {
    setDeleting(null);
    toast({ title: t`Comment deleted` });
  });

  const blank = text.trim() === '';
  const send = form.handleSubmit((comment) => create.mutate(comment));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending || status === 'loading') return;
    if (!user) {
      loginToasts.comment();
      return;
    }
    send(event);
  };

  return (
    <section id={id} aria-label={t`Comments`} className="grid gap-3 border-t pt-3">
      {comments.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> <Trans>Loading comments...</Trans>
        </p>
      ) : comments.isError ? (
        <p className="text-sm text-destructive">
          <Trans>Could not load comments.</Trans>{' '}
          <button type="button" className="underline" onClick={() => void comments.refetch()}>
            <Trans>Retry</Trans>
          </button>
        </p>
      ) : list.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>No comments yet.</Trans>
        </p>
      ) : (
        <ul className="grid gap-3">
          {list.map((comment) => {
            const author = comment.userDisplayName;
            return (
              <li key={comment.id} className="flex gap-2.5">
                {/* The name beside it is the same link, for the keyboard and a screen reader. */}
                <Link
                  to={`/profile/${comment.username}`}
                  className="shrink-0 rounded-full"
                  tabIndex={-1}
                  aria-hidden="true"
                >
                  <UserAvatar
                    user={{
                      username: comment.username,
                      displayName: comment.userDisplayName,
                      avatarUrl: comment.userAvatarUrl,
                    }}
                    size={32}
                    decorative
                  />
                </Link>
                <div className="min-w-0 flex-1 rounded-lg bg-muted/60 px-3 py-2">
                  <div className="flex flex-wrap items-baseline gap-x-1.5 text-sm">
                    <Link
                      to={`/profile/${comment.username}`}
                      className="user-text min-w-0 font-semibold hover:underline"
                    >
                      {comment.userDisplayName}
                    </Link>
                    <Handle
                      username={comment.username}
                      className="user-text min-w-0 text-xs text-muted-foreground"
                    />
                    {/* One item, so a wrap never leaves the dot behind at the end of a line. */}
                    <span className="flex gap-x-1.5 text-xs whitespace-nowrap text-muted-foreground">
                      <span aria-hidden="true">·</span>
                      <RelativeTime date={comment.createdAt} />
                    </span>
                    <ReportButton
                      compact
                      className="-my-1 ms-auto size-7 self-center"
                      targetType="comment"
                      targetId={comment.id}
                      ownerId={comment.userId}
                      subject={t`Comment by ${author}`}
                    />
                  </div>
                  <UserText text={comment.content} mentions={comment.mentions} className="mt-0.5 text-sm" />
                </div>
                {user && (user.id === comment.userId || user.id === postAuthorId) ? (
                  <button
                    type="button"
                    aria-label={t`Delete comment by ${author}`}
                    className="inline-flex size-8 shrink-0 items-center justify-center self-start rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-destructive focus-visible:outline-2 focus-visible:outline-ring"
                    onClick={() => setDeleting(comment.id)}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {comments.hasNextPage ? (
        <div>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => void comments.fetchNextPage()}
            disabled={comments.isFetchingNextPage}
          >
            {comments.isFetchingNextPage ? <Spinner /> : null}
            {comments.isFetchingNextPage ? (
              <Trans>Loading more comments...</Trans>
            ) : (
              <Trans>Show more comments</Trans>
            )}
          </Button>
        </div>
      ) : null}

      <ConfirmDialogOnDemand
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t`Delete this comment?`}
        description={t`This cannot be undone.`}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ commentId: deleting })}
      />
      <form onSubmit={submit} noValidate className="flex items-start gap-2.5">
        {user ? <UserAvatar user={user} size={32} decorative className="mt-1 hidden sm:block" /> : null}
        <div className="grid flex-1 gap-1.5">
          <MentionComposer
            id={form.fieldId('content')}
            label={t`Write a comment`}
            value={text}
            enabled={!!user}
            onValueChange={(value) => form.setValue('content', value)}
            placeholder={t`Write a comment...`}
            rows={1}
            maxLength={COMMENT_MAX_LENGTH}
            counterFrom={COMMENT_MAX_LENGTH - 200}
            error={form.errors.content ?? form.errors.root}
            className="field-sizing-content min-h-10 max-h-48 resize-none"
          />
        </div>
        <Button type="submit" size="sm" className="mt-0.5 h-10" disabled={blank || create.isPending}>
          {create.isPending ? <Spinner /> : null}
          <Trans>Comment</Trans>
        </Button>
      </form>
    </section>
  );
}
