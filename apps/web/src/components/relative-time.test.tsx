/**
 * The relative times of a page rendered on the server (components/relative-time.tsx): the page
 * hydrates with the server's clock and keeps it through hydration (a store whose browser answer
 * differs would make React render every time again at once, in one task), then moves to the
 * browser's clock in a background render once the browser is idle.
 */

import { I18nProvider } from '@lingui/react';
import { act } from '@testing-library/react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { i18n } from '../lib/i18n';
import { pinClock, RelativeTime, RenderTime } from './relative-time';

const RENDERED_AT = Date.parse('2026-12-01T10:00:00Z');
const POSTED = new Date(RENDERED_AT - 30_000).toISOString();

let renders = 0;
function Times() {
  renders += 1;
  return (
    <p>
      <RelativeTime date={POSTED} />
    </p>
  );
}

const page = (hydrating: boolean) => (
  <I18nProvider i18n={i18n}>
    <RenderTime value={RENDERED_AT} hydrating={hydrating}>
      <Times />
    </RenderTime>
  </I18nProvider>
);

let root: Root | null = null;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.replaceChildren();
  vi.useRealTimers();
});

test('a rendered page keeps the server’s times while it hydrates, then moves to the browser’s clock', async () => {
  vi.setSystemTime(RENDERED_AT);
  // The server's HTML, as the server draws it at RENDERED_AT (drawn here by a browser render of
  // the same tree: a server renderer in this process would share its contexts with later tests).
  const drawn = document.createElement('div');
  const server = createRoot(drawn);
  act(() => server.render(page(false)));
  const container = document.createElement('div');
  container.innerHTML = drawn.innerHTML;
  act(() => server.unmount());
  document.body.append(container);
  expect(container.textContent).toBe('just now');

  // The browser hydrates five minutes later.
  vi.setSystemTime(RENDERED_AT + 5 * 60_000);
  const errors = vi.spyOn(console, 'error');
  renders = 0;
  pinClock(RENDERED_AT);
  act(() => {
    root = hydrateRoot(container, page(true));
  });
  // Hydrated and its effects run: no render again with the browser's clock yet, and no mismatch.
  expect(container.textContent).toBe('just now');
  expect(renders).toBe(1);
  expect(errors).not.toHaveBeenCalled();

  // Once the browser is idle, a background render moves it on.
  await vi.waitFor(() => expect(container.textContent).toBe('5 minutes ago'));
  expect(renders).toBe(1);
  errors.mockRestore();
});
