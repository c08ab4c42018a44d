import { I18nProvider } from '@lingui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { ThemeProvider } from './theme-provider';
import { ThemeToggle } from './theme-toggle';

/** The app's i18n (English, activated in test/setup.ts) for components rendered on their own. */
function wrapper({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

/** A device whose light/dark setting the test changes, as prefers-color-scheme does. */
function fakeDevice(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn((media: string) =>
      media === '(prefers-color-scheme: dark)' ? query : { ...query, matches: false, media },
    ),
  );
  return {
    set(next: boolean) {
      dark = next;
      act(() => {
        for (const listener of listeners) listener();
      });
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderToggle() {
  return render(
    <ThemeProvider>
      <ThemeToggle />
    </ThemeProvider>,
    { wrapper },
  );
}

const html = () => document.documentElement;

describe('the theme menu', () => {
  it("defaults to System, which follows the device's setting live", () => {
    const device = fakeDevice(true);
    renderToggle();
    expect(screen.getByRole('button', { name: 'Theme: System' })).toBeTruthy();
    expect(html().classList.contains('dark')).toBe(true);
    device.set(false);
    expect(html().classList.contains('dark')).toBe(false);
    device.set(true);
    expect(html().classList.contains('dark')).toBe(true);
  });

  it('offers Light, Dark and System; a choice is kept and no longer follows the device', async () => {
    const device = fakeDevice(false);
    renderToggle();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Theme: System' }), { key: 'Enter' });
    const items = await screen.findAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual(['Light', 'Dark', 'System']);
    expect(screen.getByRole('menuitemradio', { name: 'System' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Dark' }));
    expect(html().classList.contains('dark')).toBe(true);
    expect(window.localStorage.getItem('cubes-theme')).toBe('dark');
    expect(screen.getByRole('button', { name: 'Theme: Dark' })).toBeTruthy();
    device.set(false);
    expect(html().classList.contains('dark')).toBe(true);
  });

  it('reads a stored choice back, System included', () => {
    fakeDevice(true);
    window.localStorage.setItem('cubes-theme', 'light');
    renderToggle();
    expect(screen.getByRole('button', { name: 'Theme: Light' })).toBeTruthy();
    expect(html().classList.contains('dark')).toBe(false);
  });
});
