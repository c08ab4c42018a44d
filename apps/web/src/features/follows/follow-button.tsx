/**
 * Follow / Unfollow on a member's row or card (Followers and Following lists, search results,
 * Who to follow). It flips at once and goes back on failure; a visitor is asked to log in and
 * nothing is sent. What it shows is what it does ("Follow", "Unfollow"), and its name adds whom
 * (label in name); it is pressed while following. A card that shows their followers passes the
 * count and takes the new one through onCountChange (the server's, on success).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { UserCheck, UserPlus } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useAuth } from '../auth/auth-provider';
import { loginToasts } from '../posts/login-toasts';
import { useFollowToggle } from './queries';

export function FollowButton({
  userId,
  displayName,
  isFollowing,
  followersCount,
  onCountChange,
}: {
  userId: string;
  displayName: string;
  isFollowing: boolean;
  followersCount?: number;
  onCountChange?: (followersCount: number) => void;
}) {
  const { user, status } = useAuth();
  const { t } = useLingui();
  const follow = useFollowToggle(userId, { following: isFollowing, followersCount }, onCountChange);

  if (user?.id === userId) return null;
  return (
    <Button
      size="sm"
      variant={follow.following ? 'outline' : 'default'}
      aria-pressed={follow.following}
      aria-label={follow.following ? t`Unfollow ${displayName}` : t`Follow ${displayName}`}
      // Until the session is known a click could do nothing: say so, not swallow it.
      disabled={follow.isPending || status === 'loading'}
      onClick={() => {
        if (!user) {
          loginToasts.follow();
          return;
        }
        follow.toggle();
      }}
      className="shrink-0"
    >
      {follow.following ? <UserCheck aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
      {follow.following ? <Trans>Unfollow</Trans> : <Trans>Follow</Trans>}
    </Button>
  );
}
