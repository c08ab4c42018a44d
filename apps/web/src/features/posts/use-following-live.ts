/**
 * The Following feed follows the member's follows: a follow or unfollow made in this tab or any
 * other (on any instance) arrives on `follows.onChange`, and the Following feed loads again (at
 * once when shown, when next shown otherwise). The id of the last event is kept per member for
 * the tab's life, so a feed mounted again resumes from it: the server answers only when whom the
 * member follows changed meanwhile, e.g. a follow made on a profile while the feed was not shown.
 */
import { useState } from 'react';
import { trpc } from '../../lib/trpc';

const lastSeen = new Map<string, string>();

export function useFollowingLive(userId: string): void {
  const utils = trpc.useUtils();
  const [input] = useState(() => ({ lastEventId: lastSeen.get(userId) ?? null }));
  trpc.follows.onChange.useSubscription(input, {
    onData: ({ id }) => {
      const known = lastSeen.has(userId);
      lastSeen.set(userId, id);
      // The first id a tab hears is where it starts: the feed it shows was read just now.
      if (known) void utils.posts.feed.invalidate({ scope: 'following' });
    },
  });
}
