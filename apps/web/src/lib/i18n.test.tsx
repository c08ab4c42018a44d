/**
 * The app's language in the browser (lib/i18n.ts, lib/i18n-provider.tsx): a switch renders every
 * component again in the new language, and a part of a server-rendered page still to hydrate
 * hydrates in the language the server rendered it in first (issue #50).
 */
import { useLingui } from '@lingui/react/macro';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { lazy, type ReactNode, Suspense, use } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, test } from 'vitest';
import { Tabs } from '../components/ui/tabs';
import { activateLanguage, activeI18n, i18n, i18nFor } from './i18n';
import { AppI18nProvider } from './i18n-provider';

function Label() {
  const { t } = useLingui();
  return <label htmlFor="box">{t`Write a post`}</label>;
}

/** A slot for a lazy part, as the composer has (features/posts/composer-slot.tsx). */
function Slot({ children }: { children: ReactNode }) {
  return <Suspense fallback="…">{children}</Suspense>;
}

afterEach(() => activateLanguage('en'));

test('a switch renders the app again in the new language, and the document says it', async () => {
  render(
    <AppI18nProvider>
      <Label />
    </AppI18nProvider>,
  );
  expect(screen.getByText('Write a post')).toBeTruthy();
  await activateLanguage('ar');
  expect(await screen.findByText('اكتب منشورًا')).toBeTruthy();
  expect(document.documentElement.lang).toBe('ar');
  expect(document.documentElement.dir).toBe('rtl');
  // What runs outside a render (a toast's text) follows too.
  expect(i18n.locale).toBe('ar');
});

test("Radix's parts take the language's direction: a tab panel is right to left in Arabic, and so are its arrow keys", async () => {
  render(
    <AppI18nProvider>
      <Tabs
        label="Feeds"
        items={[
          { value: 'following', label: 'Following', panel: 'the following feed' },
          { value: 'everyone', label: 'Everyone', panel: 'the everyone feed' },
        ]}
      />
    </AppI18nProvider>,
  );
  const tabs = () => screen.getByRole('tablist').parentElement;
  expect(tabs()?.getAttribute('dir')).toBe('ltr');
  await activateLanguage('ar');
  await waitFor(() => expect(tabs()?.getAttribute('dir')).toBe('rtl'));
  // In a right-to-left list the next tab is to the left.
  const following = screen.getByRole('tab', { name: 'Following' });
  act(() => following.focus());
  fireEvent.keyDown(following, { key: 'ArrowLeft' });
  // Radix moves the focus in a task after the key.
  await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Everyone' })));
});

test('of two switches in flight, the one asked last wins', async () => {
  await Promise.all([activateLanguage('de'), activateLanguage('ar')]);
  expect(activeI18n().locale).toBe('ar');
  expect(i18n.locale).toBe('ar');
  expect(document.documentElement.lang).toBe('ar');
});

test('a part still hydrating when the language changes hydrates in the language the server rendered, then changes', async () => {
  const page = (part: ReactNode, given?: Awaited<ReturnType<typeof i18nFor>>) => (
    <AppI18nProvider i18n={given}>
      <Slot>{part}</Slot>
    </AppI18nProvider>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(page(<Label />, await i18nFor('en')));
  document.body.append(container);
  expect(container.textContent).toBe('Write a post');

  // The part's chunk is here, but a piece of it is still on its way (an image's size, say), and
  // arrives just as the language changes: React hydrates the part with both in one render.
  let hydrating: () => void = () => {};
  const started = new Promise<void>((resolve) => (hydrating = resolve));
  const piece = new Promise<void>((resolve) => {
    const stop = i18n.on('change', () => {
      stop();
      resolve();
    });
  });
  function Piece() {
    hydrating();
    use(piece);
    return null;
  }
  const Part = lazy(async () => ({
    default: () => (
      <>
        <Label />
        <Piece />
      </>
    ),
  }));
  const errors: unknown[] = [];
  const root = hydrateRoot(container, page(<Part />), { onRecoverableError: (error) => errors.push(error) });
  await started;
  await activateLanguage('de');

  await waitFor(() => expect(container.textContent).toBe('Beitrag schreiben'));
  // React hydrated the server's HTML rather than throwing it away (#418 "text").
  expect(errors).toEqual([]);
  root.unmount();
  container.remove();
});
