/**
 * Live changes to posts on screen (posts.onChange over the socket): a deleted post leaves every
 * list at once, an edited post and a post whose comments changed load again. Changes to posts
 * not shown here are ignored.
 */
import { useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import { isPostCached, patchPost, removePost } from './post-cache';

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
            content: post.content,
            editedAt: post.editedAt,
            images: post.images,
            mentions: post.mentions,
            tags: post.tags,
            commentsCount: post.commentsCount,
            likesCount: post.likesCount,
          }),
        )
        .catch(() => {
          // Gone in the meantime: its own 'deleted' event removes it.
        });
    },
  });
}
