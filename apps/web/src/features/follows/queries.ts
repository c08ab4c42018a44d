/**
 * Follow and unfollow from a row or a card (a Followers/Following list, a search result, Who to
 * follow): the button keeps its own state, flipped at once and put back on failure ("Failed to
 * update follow"), and the profiles in the cache refresh when next shown. A profile page's own
 * button edits that page's cache instead (profile/queries.ts, useFollowMutation).
 */
import { t } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';

export interface FollowState {
  following: boolean;
  /** Their followers, when the caller shows it (kept by the caller through onCountChange). */
  followersCount?: number;
}

export function useFollowToggle(
  userId: string,
  initial: FollowState,
  onCountChange?: (followersCount: number) => void,
) {
  const utils = trpc.useUtils();
  const [following, setFollowing] = useState(initial.following);
  const { followersCount } = initial;
  const mutation = useMutation({
    mutationFn: (follow: boolean) =>
      follow
        ? utils.client.follows.follow.mutate({ userId })
        : utils.client.follows.unfollow.mutate({ userId }),
    onMutate: (follow): FollowState => {
      const previous = { following, followersCount };
      setFollowing(follow);
      if (followersCount !== undefined) onCountChange?.(Math.max(0, followersCount + (follow ? 1 : -1)));
      return previous;
    },
    onError: (error, _follow, previous) => {
      if (previous) {
        setFollowing(previous.following);
        if (previous.followersCount !== undefined) onCountChange?.(previous.followersCount);
      }
      errorToast(t`Failed to update follow`, error);
    },
    onSuccess: (result) => {
      setFollowing(result.following);
      onCountChange?.(result.followersCount);
      // Their profile (and the viewer's own counts) refresh when next shown.
      void utils.users.byUsername.invalidate(undefined, { refetchType: 'none' });
    },
  });
  return { following, toggle: () => mutation.mutate(!following), isPending: mutation.isPending };
}
