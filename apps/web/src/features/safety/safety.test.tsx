import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  alice,
  bob,
  fakeTrpc,
  type Handlers,
  makePost,
  type OutputOf,
  renderApp,
  serverError,
  sessionKnown,
} from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const bobProfile = (overrides: Partial<OutputOf<'users.byUsername'>> = {}): OutputOf<'users.byUsername'> => ({
  user: bob,
  stats: { followersCount: 2, followingCount: 5, postsCount: 1 },
  isFollowing: false,
  isBlocking: false,
  isBlockedBy: false,
  isMuting: false,
  isSuspended: false,
  ...overrides,
});

function openProfile(handlers: Handlers) {
  const server = fakeTrpc({
    'auth.session': { data: { user: alice, isModerator: false } },
    'users.posts': { data: { items: [makePost({ content: 'bob was here' })], nextCursor: null } },
    ...handlers,
  });
  renderApp('/profile/bob');
  return server;
}

/** Radix menus open on a pointer press (or Enter), not a click. */
async function openMenu() {
  const trigger = await screen.findByRole('button', { name: 'More actions for @bob' });
  fireEvent.keyDown(trigger, { key: 'Enter' });
  return screen.findByRole('menu');
}

describe('profile: block and mute', () => {
  it('asks before blocking; Cancel sends nothing, Block blocks and the profile is walled off', async () => {
    let blocked = false;
    const server = openProfile({
      'users.byUsername': () => ({
        data: bobProfile(blocked ? { isBlocking: true, user: { ...bob, bio: null } } : {}),
      }),
      'safety.block': () => {
        blocked = true;
        return { data: { blocked: true } };
      },
    });
    expect(await screen.findByText('bob was here')).toBeTruthy();

    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Block @bob' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Block @bob?' });
    expect(dialog.textContent).toContain("You and @bob will no longer see each other's posts");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.called('safety.block')).toHaveLength(0);

    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Block @bob' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('You blocked @bob')).toBeTruthy();
    expect(server.called('safety.block')[0]?.input).toEqual({ userId: bob.id });
    // The refetched profile: a notice instead of the bio and tabs, Unblock instead of Follow.
    expect(
      await screen.findByText("You blocked @bob. You don't see each other's posts or details."),
    ).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Posts' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Message' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Unblock' })).toBeTruthy();
  }, 20_000);

  it('unblocks from the profile at once', async () => {
    const server = openProfile({
      'users.byUsername': { data: bobProfile({ isBlocking: true }) },
      'safety.unblock': { data: { blocked: false } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Unblock' }));
    expect(await screen.findByText('You unblocked @bob')).toBeTruthy();
    expect(server.called('safety.unblock')[0]?.input).toEqual({ userId: bob.id });
  });

  it('tells a blocked member so, without details or actions', async () => {
    openProfile({
      'users.byUsername': { data: bobProfile({ isBlockedBy: true, user: { ...bob, bio: null } }) },
    });
    expect(await screen.findByText("@bob blocked you. You can't see their posts or details.")).toBeTruthy();
    expect(screen.queryByText('Builds things out of cubes.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Posts' })).toBeNull();
  });

  it('asks before muting, shows Muted after, and unmutes from the menu', async () => {
    let muted = false;
    const server = openProfile({
      'users.byUsername': () => ({ data: bobProfile({ isMuting: muted }) }),
      'safety.mute': () => {
        muted = true;
        return { data: { muted: true } };
      },
      'safety.unmute': () => {
        muted = false;
        return { data: { muted: false } };
      },
    });
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Mute @bob' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Mute @bob?' });
    expect(dialog.textContent).toContain("They won't know.");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mute' }));
    expect(await screen.findByText('You muted @bob')).toBeTruthy();
    expect(await screen.findByText('Muted')).toBeTruthy();
    // Muting is not blocking: the posts and Follow stay.
    expect(screen.getByRole('button', { name: 'Follow' })).toBeTruthy();

    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Unmute @bob' }));
    expect(await screen.findByText('You unmuted @bob')).toBeTruthy();
    expect(server.called('safety.mute')).toHaveLength(1);
    expect(server.called('safety.unmute')[0]?.input).toEqual({ userId: bob.id });
    await waitFor(() => expect(screen.queryByText('Muted')).toBeNull());
  }, 20_000);

  it('reports a member from the menu, one they blocked too', async () => {
    const server = openProfile({
      'users.byUsername': { data: bobProfile({ isBlocking: true }) },
      'reports.create': { data: { id: '5e0c0000-0000-4000-8000-000000000002' } },
    });
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Report @bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this member' });
    expect(dialog.textContent).toContain(`${bob.displayName} (@bob)`);
    fireEvent.change(within(dialog).getByLabelText('Why are you reporting this?'), {
      target: { value: 'Keeps advertising' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Report sent')).toBeTruthy();
    expect(server.called('reports.create')[0]?.input).toEqual({
      targetType: 'user',
      targetId: bob.id,
      reason: 'Keeps advertising',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report this member' })).toBeNull());
  }, 20_000);

  it('shows the server message when blocking fails', async () => {
    openProfile({
      'users.byUsername': { data: bobProfile() },
      'safety.block': {
        error: {
          message: 'Too many requests, try again in 5 seconds',
          code: 'TOO_MANY_REQUESTS',
          httpStatus: 429,
        },
      },
    });
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Block @bob' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('Failed to block')).toBeTruthy();
    expect(screen.getByText('Too many requests, try again in 5 seconds')).toBeTruthy();
  });

  it('offers no menu to visitors', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'users.byUsername': { data: bobProfile() },
      'users.posts': { data: { items: [], nextCursor: null } },
    });
    renderApp('/profile/bob');
    await sessionKnown();
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'More actions for @bob' })).toBeNull();
  });
});

const settings: OutputOf<'settings.get'> = {
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
};

const entry = (username: string, n: number) => ({
  userId: `3f2c0d8e-0000-4000-8000-00000000010${n}`,
  username,
  displayName: `${username} display`,
  avatarUrl: null,
  since: new Date('2026-11-01T00:00:00Z'),
});

describe('settings: blocked and muted users', () => {
  it('lists them with an undo each, pages with Show more, and says when a list is empty', async () => {
    let blocked = [entry('carol', 1), entry('dave', 2)];
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'settings.get': { data: settings },
      'safety.blocked': (input) =>
        input.cursor
          ? { data: { items: [entry('erin', 3)], nextCursor: null } }
          : { data: { items: blocked, nextCursor: 'next' } },
      'safety.muted': { data: { items: [], nextCursor: null } },
      'safety.unblock': (input) => {
        blocked = blocked.filter((e) => e.userId !== input.userId);
        return { data: { blocked: false } };
      },
    });
    renderApp('/settings');
    await sessionKnown();
    const list = await screen.findByRole('region', { name: 'Blocked users' });
    expect(await within(list).findByText('carol display')).toBeTruthy();
    expect(within(list).getByText('@dave')).toBeTruthy();
    expect(
      within(await screen.findByRole('region', { name: 'Muted users' })).getByText(
        "You haven't muted anyone.",
      ),
    ).toBeTruthy();

    fireEvent.click(within(list).getByRole('button', { name: 'Show more' }));
    expect(await within(list).findByText('@erin')).toBeTruthy();
    expect(server.called('safety.blocked').at(-1)?.input).toMatchObject({ cursor: 'next' });

    fireEvent.click(within(list).getByRole('button', { name: 'Unblock @carol' }));
    expect(await screen.findByText('You unblocked @carol')).toBeTruthy();
    expect(server.called('safety.unblock')[0]?.input).toEqual({ userId: entry('carol', 1).userId });
    await waitFor(() => expect(within(list).queryByText('@carol')).toBeNull());
  });

  it('shows an error with Retry when a list cannot load', async () => {
    let fail = true;
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'settings.get': { data: settings },
      'safety.blocked': { data: { items: [], nextCursor: null } },
      'safety.muted': () => (fail ? serverError : { data: { items: [entry('frank', 4)], nextCursor: null } }),
    });
    renderApp('/settings');
    await sessionKnown();
    const list = await screen.findByRole('region', { name: 'Muted users' });
    expect(await within(list).findByText('Could not load this list.')).toBeTruthy();
    fail = false;
    fireEvent.click(within(list).getByRole('button', { name: 'Retry' }));
    expect(await within(list).findByText('@frank')).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Blocked users' })).getByText("You haven't blocked anyone."),
    ).toBeTruthy();
  });
});
