/**
 * Home's two feeds: Following (people you follow, and you) and Everyone (every post, the
 * default). Logged out there is only Everyone, without tabs. The tab a member chose is remembered
 * on this device, per member.
 */
import type { FeedScope } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { ListLoading } from '../../components/list-state';
import { Tabs } from '../../components/ui/tabs';
import { useAuth } from '../auth/auth-provider';
import { Feed } from './feed';
import { useFollowingLive } from './queries';

export function feedScopeKey(userId: string): string {
  return `cubes.feed-scope.${userId}`;
}

/** The feed `userId` chose last on this device (Everyone when none, or storage is blocked). */
export function rememberedScope(userId: string): FeedScope {
  try {
    return window.localStorage.getItem(feedScopeKey(userId)) === 'following' ? 'following' : 'everyone';
  } catch {
    return 'everyone'; // storage blocked: the default
  }
}

/** The member's chosen feed, kept in localStorage under their id. */
function useRememberedScope(userId: string): [FeedScope, (scope: FeedScope) => void] {
  const [state, setState] = useState(() => ({ userId, scope: rememberedScope(userId) }));
  // Another member logged in on this tab: their own choice.
  const scope = state.userId === userId ? state.scope : rememberedScope(userId);
  const choose = useCallback(
    (next: FeedScope) => {
      setState({ userId, scope: next });
      try {
        window.localStorage.setItem(feedScopeKey(userId), next);
      } catch {
        // Not remembered, still shown.
      }
    },
    [userId],
  );
  return [scope, choose];
}

export function FeedTabs() {
  const { user, status } = useAuth();
  // Neither feed while the session is asked for: a member's comes with its tabs, and cards drawn
  // before it would be drawn again under them (moved, and anything opened on them closed).
  if (status === 'loading')
    return (
      <ListLoading>
        <Trans>Loading posts...</Trans>
      </ListLoading>
    );
  if (!user) return <Feed />;
  return <MemberFeedTabs key={user.id} userId={user.id} />;
}

function MemberFeedTabs({ userId }: { userId: string }) {
  const [scope, setScope] = useRememberedScope(userId);
  useFollowingLive(userId);
  const { t } = useLingui();
  return (
    <Tabs
      label={t`Feeds`}
      value={scope}
      onValueChange={setScope}
      items={[
        {
          value: 'following',
          label: t`Following`,
          panel: <Feed scope="following" />,
        },
        { value: 'everyone', label: t`Everyone`, panel: <Feed scope="everyone" /> },
      ]}
    />
  );
}
