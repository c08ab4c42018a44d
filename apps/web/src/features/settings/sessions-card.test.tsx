import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, type Handlers, type OutputOf, renderApp, serverError } from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const here = {
  id: '6a1c0d8e-0000-4000-8000-000000000001',
  device: 'Firefox on Linux',
  createdAt: ago(3 * 24 * HOUR),
  lastSeenAt: ago(0),
  current: true,
};
const phone = {
  id: '6a1c0d8e-0000-4000-8000-000000000002',
  device: 'Safari on iPhone',
  createdAt: ago(5 * 24 * HOUR),
  lastSeenAt: ago(2 * HOUR),
  current: false,
};

function setup(sessions: OutputOf<'sessions.list'>['sessions'], handlers: Handlers = {}) {
  const server = fakeTrpc({
    'auth.session': { data: { user: alice, isModerator: false } },
    'settings.get': {
      data: {
        username: alice.username,
        displayName: alice.displayName,
        email: alice.email!,
        bio: null,
        avatarUrl: null,
        headerUrl: null,
        emailVisible: false,
        messagesFrom: 'everyone',
        alwaysShowContentWarnings: false,
        alwaysShowSensitiveMedia: false,
        language: 'en',
      },
    },
    'sessions.list': { data: { sessions } },
    ...handlers,
  });
  renderApp('/settings');
  return server;
}

const card = () => screen.findByRole('region', { name: 'Sessions' });

describe('settings: Sessions', () => {
  it('lists the sessions, this device marked and without an End button', async () => {
    setup([here, phone]);
    const list = await within(await card()).findByRole('list', { name: 'Active sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Firefox on Linux');
    expect(items[0]!.textContent).toContain('This device');
    expect(items[0]!.textContent).toContain('Active now');
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(items[1]!.textContent).toContain('Safari on iPhone');
    expect(items[1]!.textContent).toContain('Last seen 2 hours ago');
    expect(items[1]!.textContent).toContain('Signed in 5 days ago');
  });

  it('ends one session and refreshes the list', async () => {
    let sessions = [here, phone];
    const server = setup([], {
      'sessions.list': () => ({ data: { sessions } }),
      'sessions.end': ({ sessionId }) => {
        sessions = sessions.filter((s) => s.id !== sessionId);
        return { data: { ended: 1 } };
      },
    });
    fireEvent.click(
      await within(await card()).findByRole('button', { name: 'End session on Safari on iPhone' }),
    );
    await waitFor(() =>
      expect(server.called('sessions.end').map((c) => c.input)).toEqual([{ sessionId: phone.id }]),
    );
    expect(await screen.findByText('Session ended')).toBeTruthy();
    const region = await card();
    await waitFor(() => expect(within(region).queryByText('Safari on iPhone')).toBeNull());
    expect(within(region).getByText('You are not logged in anywhere else.')).toBeTruthy();
    expect(
      within(region).getByRole<HTMLButtonElement>('button', { name: 'Log out everywhere else' }).disabled,
    ).toBe(true);
  });

  it('logs out everywhere else, and says so when it fails', async () => {
    let fail = true;
    const server = setup([here, phone], {
      'sessions.endOthers': () => (fail ? serverError : { data: { ended: 1 } }),
    });
    const button = await within(await card()).findByRole('button', { name: 'Log out everywhere else' });
    fireEvent.click(button);
    expect(await screen.findByText('Failed to log out other sessions')).toBeTruthy();
    fail = false;
    fireEvent.click(button);
    expect(await screen.findByText('1 other session ended.')).toBeTruthy();
    expect(server.called('sessions.endOthers')).toHaveLength(2);
  });

  it('offers a retry when the list cannot be loaded', async () => {
    let calls = 0;
    setup([], {
      'sessions.list': () => {
        calls += 1;
        return calls === 1 ? serverError : { data: { sessions: [here] } };
      },
    });
    fireEvent.click(await within(await card()).findByRole('button', { name: 'Retry' }));
    expect(await within(await card()).findByText('Firefox on Linux')).toBeTruthy();
  });
});
