/**
 * Home's two feeds: Following (people you follow, and you) and Everyone (every post, the
 * default). Logged out there is only Everyone, without tabs. The tab a member chose is remembered
 * on this device, per member.
 */
import type { FeedScope } from '@cubes/api/schemas';
import { Tabs } from 'radix-ui';
import { useCallback, useState } from 'react';
import { useAuth } from '../auth/auth-provider';
import { Feed } from './feed';
import { useFollowingLive } from './use-following-live';

const tabClasses =
  'relative inline-flex h-11 flex-1 items-center justify-center px-3 text-sm font-medium text-muted-foreground transition-colors sm:flex-none sm:px-5 ' +
  'hover:text-foreground data-[state=active]:text-foreground focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring ' +
  'after:absolute after:inset-x-2 after:bottom-0 after:h-0.5 after:rounded-full after:bg-primary after:opacity-0 data-[state=active]:after:opacity-100';

export function feedScopeKey(userId: string): string {
  return `cubes.feed-scope.${userId}`;
}

function readScope(userId: string): FeedScope {
  try {
    return window.localStorage.getItem(feedScopeKey(userId)) === 'following' ? 'following' : 'everyone';
  } catch {
    return 'everyone'; // storage blocked: the default
  }
}

/** The member's chosen feed, kept in localStorage under their id. */
function useRememberedScope(userId: string): [FeedScope, (scope: FeedScope) => void] {
  const [state, setState] = useState(() => ({ userId, scope: readScope(userId) }));
  // Another member logged in on this tab: their own choice.
  const scope = state.userId === userId ? state.scope : readScope(userId);
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

export function FeedTabs({ focusPostId }: { focusPostId?: string | null }) {
  const { user } = useAuth();
  if (!user) return <Feed focusPostId={focusPostId} />;
  return <MemberFeedTabs key={user.id} userId={user.id} focusPostId={focusPostId} />;
}

function MemberFeedTabs({ userId, focusPostId }: { userId: string; focusPostId?: string | null }) {
  const [scope, setScope] = useRememberedScope(userId);
  useFollowingLive(userId);
  return (
    <Tabs.Root
      value={scope}
      onValueChange={(value) => setScope(value === 'following' ? 'following' : 'everyone')}
      className="grid gap-4"
    >
      <Tabs.List aria-label="Feeds" className="flex border-b">
        <Tabs.Trigger value="following" className={tabClasses}>
          Following
        </Tabs.Trigger>
        <Tabs.Trigger value="everyone" className={tabClasses}>
          Everyone
        </Tabs.Trigger>
      </Tabs.List>
      {/* The feed is full of links: its panel takes no tab stop of its own (Radix gives it one). */}
      <Tabs.Content tabIndex={-1} value="following" className="rounded-md">
        <Feed scope="following" focusPostId={focusPostId} />
      </Tabs.Content>
      <Tabs.Content tabIndex={-1} value="everyone" className="rounded-md">
        <Feed scope="everyone" focusPostId={focusPostId} />
      </Tabs.Content>
    </Tabs.Root>
  );
}
