/**
 * `/settings#privacy` opens the page at Privacy and focuses its heading: at once on a page drawn in
 * the browser; on a page the server rendered, once it has hydrated, unless the member has already
 * placed the focus.
 */
import { fireEvent, render, screen } from '@testing-library/react';
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

function renderAt(rendered: boolean, { memberFocused }: { memberFocused: boolean }) {
  window.history.replaceState(null, '', '/settings#privacy');
  // The member put the focus on a button before the page's effects ran.
  const focusFirst = (node: HTMLElement | null) => {
    if (memberFocused) node?.querySelector('button')?.focus();
  };
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
    renderAt(false, { memberFocused: true });
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Privacy' }));
  });

  it('moves it there on a page the server rendered, once hydrated, when the member has not acted', () => {
    renderAt(true, { memberFocused: false });
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Privacy' }));
  });

  it('leaves the focus where the member put it on a page the server rendered', () => {
    renderAt(true, { memberFocused: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Theme' }));
  });

  // Last: the module remembers a key pressed on the page for the rest of it.
  it('leaves a page the server rendered as it is when the member pressed a key before it hydrated', () => {
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    renderAt(true, { memberFocused: false });
    expect(document.activeElement).toBe(document.body);
  });
});
