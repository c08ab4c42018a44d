/**
 * The posts' queries: the feed (Everyone or Following, paged, and the one-post poll for news), a
 * post's edit history, and like / unlike. The keys every post list shares, and the
 * patches and refreshes across them, are in post-cache.ts.
 *
 * Like / unlike with the optimistic flow of docs/web.md, "Likes and comments": the heart and the
 * count change at once in every cached list; a failure puts them back and says so; a success
 * refreshes the cached lists.
 *
 * Deleting a post (it leaves the lists at once), pinning it to the profile, and the Following feed after a follow or
 * unfollow (useFollowingLive). A post changed or deleted anywhere is post-changes.ts; the post
 * page's queries are post-page-queries.ts. Publishing a post and saving an edit are in
 * composer-queries.ts and edit-queries.ts, loaded with the composer and the Edit dialog: a static
 * import of this file from a later chunk splits the first page's chunk (rolldown/rolldown#10731,
 * post-history.tsx).
 */
import type { FeedScope } from '@cubes/api/schemas';
import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { i18n } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { useAuth } from '../auth/auth-provider';
import { loginToasts } from './login-toasts';
import {
  cancelPostLists,
  FEED_PAGE_SIZE,
  invalidatePostLists,
  type Post,
  patchPost,
  removePost,
} from './post-cache';

// Everyone leaves the scope out (the server's default), so its cache key is the one it always had.
const feedInput = (scope: FeedScope, limit: number) => (scope === 'following' ? { limit, scope } : { limit });

/** The feed of `scope`, newest first, paged. */
export function useFeedQuery(scope: FeedScope) {
  return trpc.posts.feed.useInfiniteQuery(feedInput(scope, FEED_PAGE_SIZE), {
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** A feed's first page, for a page rendered before it asks (routes/home.tsx's loader). */
export const prefetchFeed = (utils: QueryUtils, scope: FeedScope) =>
  utils.posts.feed.prefetchInfinite(feedInput(scope, FEED_PAGE_SIZE));

/** The Everyone feed's first page (a visitor's home). */
export const prefetchEveryoneFeed = (utils: QueryUtils) => prefetchFeed(utils, 'everyone');

/** The newest post of `scope` alone, polled every `pollMs` while enabled: is there news? */
export function useNewestPostQuery(scope: FeedScope, enabled: boolean, pollMs: number) {
  return trpc.posts.feed.useQuery(feedInput(scope, 1), { enabled, refetchInterval: pollMs });
}

/** Live: `onNew` runs whenever a post is published anywhere (posts.onNew), while enabled. */
export function useNewPostsLive(enabled: boolean, onNew: () => void): void {
  trpc.posts.onNew.useSubscription({}, { enabled, onData: onNew });
}

/** Keeps only the first page of the cached feed of `scope` (before refreshing it at the top). */
export function useTrimFeed(scope: FeedScope) {
  const utils = trpc.useUtils();
  return useCallback(
    () =>
      utils.posts.feed.setInfiniteData(feedInput(scope, FEED_PAGE_SIZE), (data) =>
        data ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
      ),
    [utils, scope],
  );
}

/** A post's earlier versions, asked afresh each time the history opens. */
export function usePostRevisionsQuery(postId: string) {
  return trpc.posts.revisions.useQuery({ postId }, { staleTime: 0 });
}

interface LikeVariables {
  postId: string;
  like: boolean;
  previous: Pick<Post, 'isLiked' | 'likesCount'>;
}

export function useLikeMutation() {
  const { user, status } = useAuth();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  const mutation = useMutation({
    mutationFn: ({ postId, like }: LikeVariables) =>
      like ? utils.client.posts.like.mutate({ postId }) : utils.client.posts.unlike.mutate({ postId }),
    onMutate: async ({ postId, like, previous }) => {
      const optimistic = { isLiked: like, likesCount: Math.max(0, previous.likesCount + (like ? 1 : -1)) };
      patchPost(queryClient, postId, optimistic);
      // A refetch already on its way would bring back the old state: drop it (after the flip, so
      // the flip is immediate), and patch again since a cancelled fetch reverts its query's data.
      await cancelPostLists(queryClient);
      patchPost(queryClient, postId, optimistic);
    },
    onError: (error, { postId, previous }) => {
      patchPost(queryClient, postId, previous);
      errorToast(i18n._(msg`Failed to update like`), error, i18n._(msg`Please try again`));
    },
    onSuccess: (result, { postId }) => {
      patchPost(queryClient, postId, { isLiked: result.liked, likesCount: result.likesCount });
      void invalidatePostLists(queryClient);
    },
  });

  const { mutate, isPending } = mutation;
  const toggle = useCallback(
    (post: Pick<Post, 'id' | 'isLiked' | 'likesCount'>) => {
      if (status === 'loading') return;
      if (!user) {
        loginToasts.like();
        return;
      }
      // One request per card at a time: a second tap waits for the first to settle.
      if (isPending) return;
      mutate({
        postId: post.id,
        like: !post.isLiked,
        previous: { isLiked: post.isLiked, likesCount: post.likesCount },
      });
    },
    [user, status, isPending, mutate],
  );

  return { toggle, isPending };
}

/**
 * Deletes the post: it leaves every cached list; `onSettled` runs either way. A post already gone
 * (deleted in another tab) leaves the lists too.
 */
export function useDeletePostMutation(postId: string, onSettled: (deleted: boolean) => void) {
  const queryClient = useQueryClient();
  return trpc.posts.delete.useMutation({
    onSuccess: () => {
      onSettled(true);
      removePost(queryClient, postId);
    },
    onError: (error) => {
      onSettled(false);
      errorToast(i18n._(msg`Failed to delete post`), error, i18n._(msg`Please try again`));
      if (error.data?.code === 'NOT_FOUND') removePost(queryClient, postId);
    },
  });
}

/**
 * Pins the post to its author's profile, or unpins it: the mark changes in every cached list and
 * the lists load again (the profile's order changes). 409 past three pinned says so.
 */
export function usePinPostMutation() {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  return useMutation({
    mutationFn: ({ postId, pin }: { postId: string; pin: boolean }) =>
      pin ? utils.client.posts.pin.mutate({ postId }) : utils.client.posts.unpin.mutate({ postId }),
    onSuccess: (result, { postId }) => {
      patchPost(queryClient, postId, { pinned: result.pinned });
      toast({ title: i18n._(result.pinned ? msg`Pinned to your profile` : msg`Unpinned from your profile`) });
      void invalidatePostLists(queryClient);
    },
    onError: (error, { pin }) =>
      errorToast(
        i18n._(pin ? msg`Failed to pin post` : msg`Failed to unpin post`),
        error,
        i18n._(msg`Please try again`),
      ),
  });
}

/**
 * The Following feed follows the member's follows: a follow or unfollow made in this tab or any
 * other (on any instance) arrives on `follows.onChange`, and the Following feed loads again (at
 * once when shown, when next shown otherwise). The id of the last event is kept per member for
 * the tab's life, so a feed mounted again resumes from it: the server answers only when whom the
 * member follows changed meanwhile, e.g. a follow made on a profile while the feed was not shown.
 */
const lastFollowEvent = new Map<string, string>();

export function useFollowingLive(userId: string): void {
  const utils = trpc.useUtils();
  const [input] = useState(() => ({ lastEventId: lastFollowEvent.get(userId) ?? null }));
  trpc.follows.onChange.useSubscription(input, {
    onData: ({ id }) => {
      const known = lastFollowEvent.has(userId);
      lastFollowEvent.set(userId, id);
      // The first id a tab hears is where it starts: the feed it shows was read just now.
      if (known) void utils.posts.feed.invalidate({ scope: 'following' });
    },
  });
}
