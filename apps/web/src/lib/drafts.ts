/**
 * Drafts: what a member has typed and not sent yet, kept per place (the home composer, each
 * post's comment box, each Cubey chat) in sessionStorage, so leaving a page and coming back finds
 * the text again (docs/web.md, "Drafts"). A place's draft goes when it is sent; every draft goes on
 * logout. The home composer also asks before the tab is closed with an unsent post.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';

const PREFIX = 'cubes.draft.';

/** The places a draft belongs to. */
export const draftPlaces = {
  post: () => 'post',
  comment: (postId: string) => `comment:${postId}`,
  /** A Cubey chat; null is the chat not started yet. */
  cubey: (sessionId: string | null) => `cubey:${sessionId ?? 'new'}`,
};

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // blocked storage: drafts last as long as the page's own state
  }
}

/**
 * The tab's drafts as this page knows them. sessionStorage mirrors them across pages; when it is
 * blocked or full, the text still lives here as long as the page does.
 */
const known = new Map<string, string>();

const listeners = new Set<() => void>();
function changed(): void {
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function readDraft(place: string): string {
  const held = known.get(place);
  if (held !== undefined) return held;
  try {
    return storage()?.getItem(PREFIX + place) ?? '';
  } catch {
    return '';
  }
}

/** Keeps `text` as the place's draft; an empty text removes it. */
export function writeDraft(place: string, text: string): void {
  known.set(place, text);
  try {
    if (text === '') storage()?.removeItem(PREFIX + place);
    else storage()?.setItem(PREFIX + place, text);
  } catch {
    // Quota or privacy mode: the text stays in the field, only not across pages.
  }
  changed();
}

export function discardDraft(place: string): void {
  writeDraft(place, '');
}

/** Every draft of this tab (logout, another member signing in). */
export function clearDrafts(): void {
  known.clear();
  const kept = storage();
  try {
    if (kept) {
      for (const key of Object.keys(kept)) if (key.startsWith(PREFIX)) kept.removeItem(key);
    }
  } catch {
    // Nothing was kept.
  }
  changed();
}

/**
 * The draft of `place` as a field's value and setter. Writing goes to sessionStorage at once, and
 * every field of the same place (and a send's discardDraft) shows the same text.
 */
export function useDraft(place: string): [string, (text: string) => void] {
  const text = useSyncExternalStore(
    subscribe,
    () => readDraft(place),
    () => '',
  );
  const setText = useCallback((next: string) => writeDraft(place, next), [place]);
  return [text, setText];
}

/**
 * While the draft of `place` holds text, closing or reloading the tab asks first (the browser's own
 * question). The draft is read when the tab closes, not when React last rendered: a tab closed
 * right after a keystroke, before the effects of that render ran, still asks.
 */
export function useWarnBeforeUnload(place: string): void {
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (readDraft(place).trim() === '') return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [place]);
}
