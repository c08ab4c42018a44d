/**
 * Home's two feeds: Following (people you follow, and you) and Everyone (every post, the
 * default). Logged out there is only Everyone, without tabs. The tab a member chose is remembered
 * on this device (feed-scope.ts).
 */
import type { FeedScope } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { ListLoading } from '../../components/list-state';
import { Tabs } from '../../components/ui/tabs';
import { useGivenCookies } from '../../lib/device-cookies';
import { useAuth } from '../auth/auth-provider';
import { Feed } from './feed';
import { rememberedScope, rememberScope } from './feed-scope';
import { useFollowingLive } from './queries';

/**
 * The member's chosen feed (feed-scope.ts): the cookie's, which the server's render of the page
 * read too.
 */
function useRememberedScope(userId: string): [FeedScope, (scope: FeedScope) => void] {
  const cookies = useGivenCookies();
  const [state, setState] = useState(() => ({ userId, scope: rememberedScope(userId, cookies) }));
  // Another member logged in on this tab: their own choice.
  const scope = state.userId === userId ? state.scope : rememberedScope(userId);
  const choose = useCallback(
    (next: FeedScope) => {
      setState({ userId, scope: next });
      rememberScope(userId, next);
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
