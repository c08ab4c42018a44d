/**
 * The author's actions on their own post, behind a "Post actions" menu: Edit (in the first 15
 * minutes; the text it replaces stays in the post's history), Pin to / Unpin from their profile,
 * and Delete (its likes and comments go with it). Edit and Delete open a dialog; nothing is lost
 * by one click.
 */
import { POST_EDIT_WINDOW_MS } from '@cubes/api/rules';
import { Trans, useLingui } from '@lingui/react/macro';
import { MoreHorizontal, Pencil, Pin, PinOff, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { LazyMenu } from '../../components/ui/lazy-menu';
import { toast } from '../../components/ui/use-toast';
import type { Post } from './post-cache';
import { useDeletePostMutation, usePinPostMutation } from './queries';

// The edit form validates with the shared zod schema: it loads when opened, so zod stays out of
// the first page's bundle. The delete question comes with it: no card of a list needs it before.
const EditPostDialog = lazy(() => import('./edit-post-dialog'));
const DeletePostDialog = lazy(() =>
  import('./edit-post-dialog').then((m) => ({ default: m.DeletePostDialog })),
);

const itemClasses =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-2 text-sm outline-none transition-colors ' +
  'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4';

/** Whether the author may still edit the post (the server has the last word). */
export function canEdit(post: Pick<Post, 'createdAt'>, now = Date.now()): boolean {
  return now - new Date(post.createdAt).getTime() < POST_EDIT_WINDOW_MS;
}

export function PostActions({ post }: { post: Post }) {
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const pin = usePinPostMutation();
  const { t } = useLingui();
  // Read when the menu renders (it renders on opening), so a post that aged past the window loses Edit.
  const editable = canEdit(post);
  return (
    <>
      <LazyMenu
        kind="menu"
        trigger={
          <button
            type="button"
            aria-label={t`Post actions`}
            className="-me-1 ms-auto inline-flex size-9 shrink-0 items-center justify-center self-start rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-ring data-[state=open]:bg-accent"
          >
            <MoreHorizontal aria-hidden="true" className="size-5" />
          </button>
        }
      >
        {({ DropdownMenu }) => (
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            className="menu-content z-50 min-w-44 overflow-hidden rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
          >
            {editable ? (
              <DropdownMenu.Item className={itemClasses} onSelect={() => setDialog('edit')}>
                <Pencil aria-hidden="true" className="text-muted-foreground" />
                <Trans>Edit</Trans>
              </DropdownMenu.Item>
            ) : null}
            <DropdownMenu.Item
              className={itemClasses}
              disabled={pin.isPending}
              onSelect={() => pin.mutate({ postId: post.id, pin: !post.pinned })}
            >
              {post.pinned ? (
                <PinOff aria-hidden="true" className="text-muted-foreground" />
              ) : (
                <Pin aria-hidden="true" className="text-muted-foreground" />
              )}
              {post.pinned ? <Trans>Unpin from profile</Trans> : <Trans>Pin to profile</Trans>}
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className={`${itemClasses} text-destructive data-[highlighted]:text-destructive`}
              onSelect={() => setDialog('delete')}
            >
              <Trash2 aria-hidden="true" />
              <Trans>Delete</Trans>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        )}
      </LazyMenu>
      {dialog === 'delete' ? <DeletePost post={post} close={() => setDialog(null)} /> : null}
      {dialog === 'edit' ? (
        <Suspense fallback={null}>
          <EditPostDialog post={post} onClose={() => setDialog(null)} />
        </Suspense>
      ) : null}
    </>
  );
}

/** Asks before deleting the post; the mutation is asked for here, beside the dialog's chunk (post-history.tsx says why). */
function DeletePost({ post, close }: { post: Post; close: () => void }) {
  const { t } = useLingui();
  const remove = useDeletePostMutation(post.id, (deleted) => {
    close();
    if (deleted) toast({ title: t`Post deleted` });
  });
  return (
    <Suspense fallback={null}>
      <DeletePostDialog
        pending={remove.isPending}
        onDelete={() => remove.mutate({ postId: post.id })}
        onClose={close}
      />
    </Suspense>
  );
}
