/**
 * Follow / Unfollow on a row of a Followers or Following list: it flips at once, goes back on
 * failure ("Failed to update follow"), and a visitor is asked to log in with nothing sent. What it
 * shows is what it does ("Follow", "Unfollow"), and its name adds whom (label in name).
 */
import { useMutation } from '@tanstack/react-query';
import { UserCheck, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { loginToasts } from '../posts/login-toasts';

export function FollowListButton({
  userId,
  displayName,
  isFollowing,
}: {
  userId: string;
  displayName: string;
  isFollowing: boolean;
}) {
  const { user, status } = useAuth();
  const utils = trpc.useUtils();
  const [following, setFollowing] = useState(isFollowing);
  const mutation = useMutation({
    mutationFn: (follow: boolean) =>
      follow
        ? utils.client.follows.follow.mutate({ userId })
        : utils.client.follows.unfollow.mutate({ userId }),
    onMutate: (follow) => {
      const previous = following;
      setFollowing(follow);
      return previous;
    },
    onError: (error, _follow, previous) => {
      if (previous !== undefined) setFollowing(previous);
      errorToast('Failed to update follow', error);
    },
    onSuccess: (result) => {
      setFollowing(result.following);
      // Their profile (and the viewer's own counts) refresh when next shown.
      void utils.users.byUsername.invalidate(undefined, { refetchType: 'none' });
    },
  });

  if (user?.id === userId) return null;
  const action = following ? 'Unfollow' : 'Follow';
  return (
    <Button
      size="sm"
      variant={following ? 'outline' : 'default'}
      aria-label={`${action} ${displayName}`}
      disabled={mutation.isPending}
      onClick={() => {
        if (status === 'loading') return;
        if (!user) {
          loginToasts.follow();
          return;
        }
        mutation.mutate(!following);
      }}
      className="shrink-0"
    >
      {following ? <UserCheck aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
      {action}
    </Button>
  );
}
