/**
 * Follow / unfollow on a search card. It flips at once, goes back on failure, and takes the
 * server's count on success; a visitor is asked to log in and nothing is sent. The profile cache
 * of that user is refreshed when next shown.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { loginToasts } from '../posts/login-toasts';

interface Props {
  userId: string;
  displayName: string;
  isFollowing: boolean;
  followersCount: number;
  onCountChange: (followersCount: number) => void;
}

export function SearchFollowButton({
  userId,
  displayName,
  isFollowing,
  followersCount,
  onCountChange,
}: Props) {
  const { user, status } = useAuth();
  const utils = trpc.useUtils();
  const [following, setFollowing] = useState(isFollowing);
  const mutation = useMutation({
    mutationFn: (follow: boolean) =>
      follow
        ? utils.client.follows.follow.mutate({ userId })
        : utils.client.follows.unfollow.mutate({ userId }),
    onMutate: (follow) => {
      const previous = { following, followersCount };
      setFollowing(follow);
      onCountChange(Math.max(0, followersCount + (follow ? 1 : -1)));
      return previous;
    },
    onError: (error, _follow, previous) => {
      if (previous) {
        setFollowing(previous.following);
        onCountChange(previous.followersCount);
      }
      errorToast('Failed to update follow', error);
    },
    onSuccess: (result) => {
      setFollowing(result.following);
      onCountChange(result.followersCount);
      void utils.users.byUsername.invalidate(undefined, { refetchType: 'none' });
    },
  });

  if (user?.id === userId) return null;
  return (
    <Button
      size="sm"
      variant={following ? 'outline' : 'default'}
      aria-pressed={following}
      aria-label={`${following ? 'Unfollow' : 'Follow'} ${displayName}`}
      disabled={mutation.isPending}
      onClick={() => {
        if (status === 'loading') return;
        if (!user) {
          loginToasts.follow();
          return;
        }
        mutation.mutate(!following);
      }}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
