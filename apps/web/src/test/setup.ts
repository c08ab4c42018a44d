/** jsdom lacks a few browser APIs that Radix and our components touch; stub them, and clean up between tests. */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { removeAllToasts } from '../components/ui/use-toast';
import { resetConnectivity } from '../lib/connectivity';
import { clearDrafts } from '../lib/drafts';
import { closeAllSockets, FakeSocket } from './fake-socket';
// The app imports the shared schemas (and zod) lazily, with the forms that use them; load them once
// here so that cost is not paid inside the first test that opens such a form.
import '@cubes/api/schemas';
import { activateLanguage } from '../lib/i18n';

// The app's messages in English, the language the tests read (a test of another sets its own).
await activateLanguage('en');

// How long a findBy… or waitFor waits for what it looks for, unless a call says otherwise: one
// bound for every test, and a generous one. A whole-app render (lazy routes, a session check, then
// data) takes about a second on an idle machine, and many times that on a busy one: a worker's
// first toast or chat answer, waiting for its lazy chunk, passed 15 s at a load average of 24 on
// two cores. A wait ends as soon as its element shows, so the bound costs nothing when it is met.
configure({ asyncUtilTimeout: 30_000 });

// Subscriptions talk to a fake socket (fake-socket.ts): no test opens a real one.
globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;

afterEach(() => {
  cleanup();
  // The toasts live in a module of their own (use-toast.ts): one test's toast must not show in the next.
  removeAllToasts();
  closeAllSockets();
  window.localStorage.clear();
  // Every cookie the app wrote (the chosen feed, the language): gone with its expiry in the past.
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API.
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
  // Drafts (lib/drafts.ts) are kept per tab, in the page and in session storage.
  clearDrafts();
  window.sessionStorage.clear();
  // A request without an answer marks the server unreachable (lib/connectivity) until one is answered.
  resetConnectivity();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

if (!window.matchMedia) {
  window.matchMedia = vi.fn((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

Element.prototype.scrollIntoView ??= () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
