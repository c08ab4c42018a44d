/**
 * The member this device last knew, kept so that a page opened without a connection (the service
 * worker's shell) still shows who is logged in instead of a visitor's Login (docs/web.md,
 * "Installable app and offline"). Only what the header draws is kept: id, names, avatar and
 * whether they moderate; no e-mail, no token (the session itself is the HttpOnly cookie). It is
 * written from every answer of the session check, and removed when that answer says nobody is
 * logged in (a visitor, a 401), on logout and when another member signs in.
 */
import type { RouterOutputs } from '@cubes/api/client';

type SessionUser = RouterOutputs['auth']['me']['user'];

export type KnownMember = Pick<SessionUser, 'id' | 'username' | 'displayName' | 'avatarUrl'>;
export interface LastMember {
  user: KnownMember;
  isModerator: boolean;
}

export const LAST_MEMBER_KEY = 'cubes.last-member';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // blocked storage: nothing is remembered
  }
}

function isLastMember(value: unknown): value is LastMember {
  if (typeof value !== 'object' || value === null) return false;
  const { user, isModerator } = value as Partial<LastMember>;
  return (
    typeof isModerator === 'boolean' &&
    typeof user === 'object' &&
    user !== null &&
    typeof user.id === 'string' &&
    typeof user.username === 'string' &&
    typeof user.displayName === 'string' &&
    (user.avatarUrl === null || typeof user.avatarUrl === 'string')
  );
}

export function readLastMember(): LastMember | null {
  try {
    const raw = storage()?.getItem(LAST_MEMBER_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return isLastMember(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Remembers `session`'s member (the header's fields only), or forgets it for null. */
export function rememberMember(session: { user: KnownMember; isModerator?: boolean } | null): void {
  try {
    if (!session) {
      storage()?.removeItem(LAST_MEMBER_KEY);
      return;
    }
    const { id, username, displayName, avatarUrl } = session.user;
    const kept: LastMember = {
      user: { id, username, displayName, avatarUrl },
      isModerator: session.isModerator === true,
    };
    storage()?.setItem(LAST_MEMBER_KEY, JSON.stringify(kept));
  } catch {
    // Quota or privacy mode: offline, the page will show a visitor.
  }
}
