/**
 * A post's comments: the list (oldest first, paged), and adding and deleting one. A new comment
 * goes at the end of the cached list and a deleted one leaves it at once, and the post's comment
 * count follows in every cached post list (posts/post-cache.ts).
 */
import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { patchPost } from '../posts/post-cache';

/** The post's comments, paged. */
export function useCommentsQuery(postId: string) {
  return trpc.comments.list.useInfiniteQuery(
    { postId },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
}

/** The first page of the post's comments, into the cache useCommentsQuery reads (routes/loader.ts). */
export function prefetchComments(utils: QueryUtils, postId: string): Promise<void> {
  return utils.comments.list.prefetchInfinite({ postId });
}

/** Adds a comment under the post; `onAdded` runs once it is in the list. */
export function useCreateCommentMutation(postId: string, onAdded: () => void) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return trpc.comments.create.useMutation({
    onSuccess: (comment) => {
      utils.comments.list.setInfiniteData({ postId }, (data) => {
        if (!data) return { pages: [{ items: [comment], nextCursor: null }], pageParams: [null] };
        const pages = [...data.pages];
        const last = pages.at(-1)!;
        pages[pages.length - 1] = {
          ...last,
          items: [...last.items.filter((c) => c.id !== comment.id), comment],
        };
        return { ...data, pages };
      });
      patchPost(queryClient, postId, (post) => ({ commentsCount: post.commentsCount + 1 }));
      onAdded();
    },
    onError: (failure) => {
      errorToast(t`Failed to add comment`, failure);
    },
  });
}

/** Deletes a comment under the post; `onDeleted` runs once it has left the list. */
export function useDeleteCommentMutation(postId: string, onDeleted: () => void) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return trpc.comments.delete.useMutation({
    onSuccess: (_result, { commentId }) => {
      utils.comments.list.setInfiniteData({ postId }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.filter((c) => c.id !== commentId),
              })),
            }
          : data,
      );
      patchPost(queryClient, postId, (post) => ({ commentsCount: Math.max(0, post.commentsCount - 1) }));
      onDeleted();
    },
    onError: (failure) => {
      errorToast(t`Failed to delete comment`, failure);
    },
  });
}
