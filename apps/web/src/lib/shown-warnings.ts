/**
 * The posts whose content warning the viewer opened (Show) in this tab's session, kept in
 * sessionStorage (their ids, space-separated) so the choice survives a reload and a trip to
 * another page, and goes with the tab (docs/features/feed.md, "Content warnings"). Every card of
 * the same post follows one choice. Blocked storage: the choice lasts as long as the page. Small
 * on purpose: it is in the first page's script.
 */
import { useSyncExternalStore } from 'react';

const KEY = 'cubes.shownWarnings';
const listeners = new Set<() => void>();
let kept: string | undefined;

function read(): string {
  if (kept === undefined) {
    try {
      kept = sessionStorage.getItem(KEY) ?? '';
    } catch {
      kept = '';
    }
  }
  return kept;
}

/** Opens (true) or folds again (false) the warning of `postId`, for this session. */
export function setWarningShown(postId: string, open: boolean): void {
  kept = read()
    .split(' ')
    .filter((id) => id && id !== postId)
    .concat(open ? [postId] : [])
    .join(' ');
  try {
    sessionStorage.setItem(KEY, kept);
  } catch {
    // Quota or privacy mode: remembered by this page only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * Whether the viewer opened `postId`'s warning this session (false in the server's render). A post
 * without a warning (`hasWarning` false) does not read the storage: the tab's first read of
 * sessionStorage took 9–39 ms of a first render's main thread, on pages where no card has one.
 */
export const useWarningShown = (postId: string, hasWarning: boolean): boolean =>
  useSyncExternalStore(
    subscribe,
    () => hasWarning && read().split(' ').includes(postId),
    () => false,
  );
