/**
 * Live changes to posts, for every screen that shows post cards (post-list.tsx, the post's page):
 * a post deleted anywhere leaves every cached list at once; an edited post, and a post whose
 * comments changed, load again. Its own module, not queries.ts: a later chunk (the post's page)
 * that imports queries.ts splits the first page's chunk (rolldown/rolldown#10731).
 */
import { useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import { editedFields, isPostCached, patchPost, removePost } from './post-cache';

/**
 * Live changes to posts (posts.onChange), while enabled: a deleted post leaves every list at once,
 * an edited post, a post whose comments changed, one whose link card arrived or went and one whose
 * poll was voted in or ended load again (each viewer gets the poll results they may see). Posts
 * not cached are ignored.
 */
export function usePostChanges(enabled = true): void {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  trpc.posts.onChange.useSubscription(undefined, {
    enabled,
    onData: ({ postId, kind }) => {
      if (kind === 'deleted') {
        removePost(queryClient, postId);
        return;
      }
      if (kind === 'comments') void utils.comments.list.invalidate({ postId });
      if (!isPostCached(queryClient, postId)) return;
      utils.posts.byId
        .fetch({ postId }, { staleTime: 0 })
        .then(({ post }) =>
          patchPost(queryClient, postId, {
            ...editedFields(post),
            commentsCount: post.commentsCount,
            likesCount: post.likesCount,
            poll: post.poll,
          }),
        )
        .catch(() => {
          // Gone in the meantime: its own 'deleted' event removes it.
        });
    },
  });
}
