/**
 * `/settings#privacy` opens the page at Privacy: a page drawn in the browser moves the focus to the
 * section's heading; a page the server rendered keeps the focus where the member put it (the
 * browser scrolled to the section as it read the HTML).
 */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app';
import { ServerRendered } from '../../lib/server-rendered';
import { SettingsSection, useJumpToHash } from './settings-sections';

function Page() {
  useJumpToHash(true);
  return (
    <>
      <button type="button">Theme</button>
      <SettingsSection id="privacy">
        <p>Switches</p>
      </SettingsSection>
    </>
  );
}

function renderAt(rendered: boolean) {
  window.history.replaceState(null, '', '/settings#privacy');
  // The member put the focus on a button before the page's effects ran.
  const focusFirst = (node: HTMLElement | null) => node?.querySelector('button')?.focus();
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={['/settings']}>
        <div ref={focusFirst}>
          {rendered ? (
            <ServerRendered url="/settings" shell={false}>
              <Page />
            </ServerRendered>
          ) : (
            <Page />
          )}
        </div>
      </MemoryRouter>
    </AppProviders>,
  );
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('useJumpToHash', () => {
  it('moves the focus to the section named by the address on a page drawn in the browser', () => {
    renderAt(false);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Privacy' }));
  });

  it('leaves the focus where it is on a page the server rendered', () => {
    renderAt(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Theme' }));
  });
});
