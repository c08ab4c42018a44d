/**
 * "Who to follow": members followed by those you follow, then members who posted lately
 * (users.suggestions; the server leaves out you, whom you follow, anyone blocked either way,
 * muted or suspended). Its Follow buttons are the shared one (follows/follow-button.tsx).
 */

import type { RouterOutputs } from '@cubes/api/client';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { UserPlus } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Handle } from '../../components/handle';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { FollowButton } from '../follows/follow-button';
import { useSuggestionsQuery } from './queries';

type Suggested = RouterOutputs['users']['suggestions']['items'][number];

export const WHO_TO_FOLLOW_LIMIT = 5;

function SuggestedRow({ user }: { user: Suggested }) {
  const { t } = useLingui();
  const followedBy = user.followedBy;
  const reason =
    user.reason === 'followed'
      ? t`Followed by ${plural(followedBy, { one: '# person', other: '# people' })} you follow`
      : t`Posted lately`;
  const profile = `/profile/${encodeURIComponent(user.username)}`;
  return (
    <li className="flex items-center gap-3">
      <Link to={profile} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
        <UserAvatar user={user} size={40} decorative />
      </Link>
      <div className="grid min-w-0 flex-1 leading-tight">
        <Link to={profile} className="user-text truncate text-sm font-semibold hover:underline">
          {user.displayName}
        </Link>
        <Handle username={user.username} className="truncate text-xs text-muted-foreground" />
        <span className="truncate text-xs text-muted-foreground">{reason}</span>
      </div>
      <FollowButton userId={user.id} displayName={user.displayName} isFollowing={false} />
    </li>
  );
}

export function WhoToFollow() {
  const suggestions = useSuggestionsQuery(WHO_TO_FOLLOW_LIMIT);
  const { t } = useLingui();
  return (
    <section
      aria-labelledby="who-to-follow-title"
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm"
    >
      <h2 id="who-to-follow-title" className="flex items-center gap-2 text-base font-semibold">
        <UserPlus aria-hidden="true" className="size-4 text-primary" />
        <Trans>Who to follow</Trans>
      </h2>
      {suggestions.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> <Trans>Loading suggestions...</Trans>
        </p>
      ) : suggestions.isError ? (
        <div className="grid justify-items-start gap-2 text-sm">
          <p className="text-muted-foreground">
            <Trans>Could not load suggestions.</Trans>
          </p>
          <Button variant="outline" size="sm" onClick={() => void suggestions.refetch()}>
            <Trans>Retry</Trans>
          </Button>
        </div>
      ) : suggestions.data.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>No one to suggest right now.</Trans>
        </p>
      ) : (
        <ul aria-label={t`Members to follow`} className="grid gap-3">
          {suggestions.data.items.map((user) => (
            <SuggestedRow key={user.id} user={user} />
          ))}
        </ul>
      )}
    </section>
  );
}
