/**
 * Bookmarks' queries: the member's list (useBookmarksQuery, the Bookmarks screen) and Bookmark /
 * take back (useBookmark), with the same optimistic flow as a like (useLikeMutation in
 * posts/queries.ts): the mark changes at once in every cached list, a failure puts it back and
 * says so, a success refreshes the Bookmarks list the next time it shows. A visitor is asked to
 * log in and nothing is sent.
 */
import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useCallback } from 'react';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { useAuth } from '../auth/auth-provider';
import { cancelPostLists, FEED_PAGE_SIZE, type Post, patchPost } from '../posts/post-cache';

/** The list's input, the hook's and the loader's alike (one query key). */
const BOOKMARKS_INPUT = { limit: FEED_PAGE_SIZE };

/** The member's bookmarked posts, newest bookmark first, paged like the feed. */
export function useBookmarksQuery() {
  return trpc.bookmarks.list.useInfiniteQuery(BOOKMARKS_INPUT, {
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Their first page (the Bookmarks page's loader: routes/bookmarks.tsx). */
export function prefetchBookmarks(utils: QueryUtils): Promise<void> {
  return utils.bookmarks.list.prefetchInfinite(BOOKMARKS_INPUT);
}

interface BookmarkVariables {
  postId: string;
  bookmark: boolean;
}

export const bookmarkLoginToast = () =>
  toast({
    title: t`Please login to bookmark posts`,
    description: t`You need to be logged in to interact with posts`,
    variant: 'destructive',
  });

export function useBookmark() {
  const { user, status } = useAuth();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  const mutation = useMutation({
    mutationFn: ({ postId, bookmark }: BookmarkVariables) =>
      bookmark
        ? utils.client.bookmarks.add.mutate({ postId })
        : utils.client.bookmarks.remove.mutate({ postId }),
    onMutate: async ({ postId, bookmark }) => {
      patchPost(queryClient, postId, { isBookmarked: bookmark });
      // As with likes: a refetch on its way would bring the old mark back.
      await cancelPostLists(queryClient);
      patchPost(queryClient, postId, { isBookmarked: bookmark });
    },
    onError: (error, { postId, bookmark }) => {
      patchPost(queryClient, postId, { isBookmarked: !bookmark });
      errorToast(t`Failed to update bookmark`, error, t`Please try again`);
    },
    onSuccess: (result, { postId }) => {
      patchPost(queryClient, postId, { isBookmarked: result.bookmarked });
      // The Bookmarks screen keeps what it shows (a post taken back can be bookmarked again from
      // there) and loads afresh when next opened.
      void queryClient.invalidateQueries({
        queryKey: getQueryKey(trpc.bookmarks.list),
        refetchType: 'none',
      });
    },
  });

  const { mutate, isPending } = mutation;
  const toggle = useCallback(
    (post: Pick<Post, 'id' | 'isBookmarked'>) => {
      if (status === 'loading') return;
      if (!user) {
        bookmarkLoginToast();
        return;
      }
      if (isPending) return;
      mutate({ postId: post.id, bookmark: !post.isBookmarked });
    },
    [user, status, isPending, mutate],
  );

  return { toggle, isPending };
}
