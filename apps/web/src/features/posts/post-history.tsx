/**
 * The "edited" mark of a post. Pressed, it opens the dialog of the post's history (the current
 * text and every version an edit replaced, newest first): the dialog comes with the Edit dialog's
 * chunk (edit-post-dialog.tsx, PostHistoryDialog), not in the first page's JavaScript, and a new
 * chunk of its own would split the first page's (rolldown/rolldown#10731, post-card-slot.tsx).
 * The versions are asked for here, beside the chunk: a static import of posts/queries.ts from
 * that chunk split the first page's chunk too.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import type { Post } from './post-cache';
import { usePostRevisionsQuery } from './queries';

const PostHistoryDialog = lazy(() =>
  import('./edit-post-dialog').then((m) => ({ default: m.PostHistoryDialog })),
);

export function EditedMark({ post }: { post: Post & { editedAt: string } }) {
  const [open, setOpen] = useState(false);
  const { t } = useLingui();
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        className="shrink-0 rounded-sm underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        aria-label={t`Edited: show earlier versions`}
        onClick={() => setOpen(true)}
      >
        <Trans>edited</Trans>
      </button>
      {open ? <History post={post} close={() => setOpen(false)} /> : null}
    </>
  );
}

function History({ post, close }: { post: Post & { editedAt: string }; close: () => void }) {
  const history = usePostRevisionsQuery(post.id);
  return (
    <Suspense fallback={null}>
      <PostHistoryDialog post={post} history={history} close={close} />
    </Suspense>
  );
}
