/**
 * The profile's queries: a member's profile by username and their posts (the keys, the hooks and
 * the page's loader, routes/user-profile.tsx), follow's optimistic update of the profile, the
 * Followers and Following lists it opens, and its Favorites and Media tabs.
 */
import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { useCallback } from 'react';
import { errorToast } from '../../lib/error-toast';
import { i18n } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { FEED_PAGE_SIZE } from '../posts/post-cache';

export const profileInput = (username: string) => ({ username });
const userPostsInput = (userId: string) => ({ userId, limit: FEED_PAGE_SIZE });
const nextCursor = (last: { nextCursor?: string | null }) => last.nextCursor ?? undefined;

/** A member's profile (users.byUsername): who they are, their counts, how the viewer relates. */
export function useProfileQuery(username: string) {
  return trpc.users.byUsername.useQuery(profileInput(username), { enabled: username !== '' });
}

/** A member's posts, newest first, paged as the feed. */
export function useUserPostsQuery(userId: string) {
  return trpc.users.posts.useInfiniteQuery(userPostsInput(userId), { getNextPageParam: nextCursor });
}

/**
 * The profile page's first data: the profile, then (it needs the member's id) the first page of
 * their posts, the tab a profile opens on.
 */
export async function prefetchProfile(utils: QueryUtils, username: string): Promise<void> {
  if (username === '') return;
  await utils.users.byUsername.prefetch(profileInput(username));
  const profile = utils.users.byUsername.getData(profileInput(username));
  if (profile) await utils.users.posts.prefetchInfinite(userPostsInput(profile.user.id));
}

/**
 * Follow / unfollow on a profile: the button and the followers count change at once, go back on
 * failure, and take the server's answer on success.
 */
interface FollowVariables {
  userId: string;
  follow: boolean;
}

export function useFollowMutation(username: string) {
  const utils = trpc.useUtils();
  const key = profileInput(username);

  const setFollow = (isFollowing: boolean, followersCount: number) =>
    utils.users.byUsername.setData(key, (profile) =>
      profile ? { ...profile, isFollowing, stats: { ...profile.stats, followersCount } } : profile,
    );

  return useMutation({
    mutationFn: ({ userId, follow }: FollowVariables) =>
      follow
        ? utils.client.follows.follow.mutate({ userId })
        : utils.client.follows.unfollow.mutate({ userId }),
    onMutate: async ({ follow }) => {
      await utils.users.byUsername.cancel(key);
      const previous = utils.users.byUsername.getData(key);
      if (previous) {
        const delta = follow === previous.isFollowing ? 0 : follow ? 1 : -1;
        setFollow(follow, Math.max(0, previous.stats.followersCount + delta));
      }
      return { previous };
    },
    onError: (error, _variables, context) => {
      if (context?.previous) setFollow(context.previous.isFollowing, context.previous.stats.followersCount);
      errorToast(i18n._(msg`Failed to update follow`), error, i18n._(msg`Please try again`));
    },
    onSuccess: (result) => {
      setFollow(result.following, result.followersCount);
      // Other profiles (the viewer's own following count) refresh when next shown.
      void utils.users.byUsername.invalidate(undefined, { refetchType: 'none' });
    },
  });
}

const LIST_PAGE = 24;

/** Whom a member follows, or who follows them, paged; asked again at each open (it changes). */
export function useFollowListQuery(kind: 'followers' | 'following', userId: string, limit: number) {
  return trpc.follows[kind].useInfiniteQuery(
    { userId, limit },
    { getNextPageParam: nextCursor, staleTime: 0 },
  );
}

/** Makes every cached profile load again (a follow made in a list may change their counts). */
export function useRefreshProfiles(): () => void {
  const utils = trpc.useUtils();
  return useCallback(() => void utils.users.byUsername.invalidate(), [utils]);
}

/** The media a member favourited, most recent first, paged. */
export function useFavoritesOfQuery(userId: string) {
  return trpc.gallery.favoritesOf.useInfiniteQuery(
    { userId, limit: LIST_PAGE },
    { getNextPageParam: nextCursor },
  );
}

/** A member's posts with images, newest first, paged. */
export function useMediaOfQuery(userId: string) {
  return trpc.gallery.mediaOf.useInfiniteQuery(
    { userId, limit: LIST_PAGE },
    { getNextPageParam: nextCursor },
  );
}
