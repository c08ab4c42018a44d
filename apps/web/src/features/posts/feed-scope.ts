/**
 * The feed a member chose last on this device (home's Following or Everyone tab, feed-tabs.tsx):
 * a cookie, so the server's render of their home (entry-server.tsx) draws the same tab and loads
 * the same feed as the browser. It names the member it is for: another member signing in on the
 * device starts at Everyone, the default. (It was kept in localStorage before, where the server
 * cannot read it; such a choice is not carried over: the first page's script budget has no room
 * for it, and the member's next pick is kept.)
 */
import type { FeedScope } from '@cubes/api/schemas';
import { readCookie } from '../../lib/device-cookies';

export const FEED_SCOPE_COOKIE = 'cubes-feed';
const MAX_AGE_S = 400 * 24 * 60 * 60; // browsers keep a cookie at most 400 days

/** The feed `userId` chose (Everyone when none, or the cookie is another member's). */
export function rememberedScope(
  userId: string,
  cookies?: Readonly<Record<string, string>> | null,
): FeedScope {
  return scopeIn(readCookie(FEED_SCOPE_COOKIE, cookies), userId) ?? 'everyone';
}

function scopeIn(cookie: string | undefined, userId: string): FeedScope | null {
  return cookie === `${userId}.following` ? 'following' : cookie === `${userId}.everyone` ? 'everyone' : null;
}

export function rememberScope(userId: string, scope: FeedScope): void {
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie, written once per choice.
  document.cookie = `${FEED_SCOPE_COOKIE}=${userId}.${scope}; path=/; max-age=${MAX_AGE_S}; samesite=lax${secure}`;
}
