/**
 * The cookies of this device that a page is drawn by (the member's chosen feed,
 * features/posts/feed-scope.ts): the server's render of a member's page gets them from the request
 * (entry-server.tsx, only the ones it names), the browser reads document.cookie. The same cookie,
 * so the browser's hydrating render draws what the server drew.
 */
import { createContext, useContext } from 'react';

type Cookies = Readonly<Record<string, string>>;

const Given = createContext<Cookies | null>(null);

/** The server's render: the request's cookies that its page may read. */
export const DeviceCookies = Given.Provider;

/**
 * The cookie `name` from `given`, else from document.cookie (undefined on a server without any).
 * Read as written: the app's own cookies hold no character that needs decoding.
 */
export function readCookie(name: string, given?: Cookies | null): string | undefined {
  if (given) return given[name];
  if (typeof document === 'undefined') return undefined;
  return new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(document.cookie)?.[1];
}

/** The cookies the server's render was given (null in the browser: readCookie reads the document's). */
export function useGivenCookies(): Cookies | null {
  return useContext(Given);
}
