/**
 * Follow / unfollow on a profile: the button and the followers count change at once, go back on
 * failure, and take the server's answer on success.
 */
import { useMutation } from '@tanstack/react-query';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';

interface FollowVariables {
  userId: string;
  follow: boolean;
}

export function useFollow(username: string) {
  const utils = trpc.useUtils();
  const key = { username };

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
      errorToast('Failed to update follow', error);
    },
    onSuccess: (result) => {
      setFollow(result.following, result.followersCount);
      // Other profiles (the viewer's own following count) refresh when next shown.
      void utils.users.byUsername.invalidate(undefined, { refetchType: 'none' });
    },
  });
}
