/**
 * The Chat page: links, @mentions and #tags in messages are links in both bubbles,
 * and never in the own bubble's own purple; messages are grouped with one time per group and
 * "Seen" once; a conversation can be started by picking a member.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, bob, fakeTrpc, type OutputOf, renderApp, sessionKnown } from '../../test/fake-trpc';
import { wideScreen } from '../../test/screen-width';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  wideScreen();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const T0 = Date.now() - 30 * 60_000;

function message(
  id: string,
  from: string,
  content: string,
  minutesAfter: number,
  read = false,
): OutputOf<'messages.send'> {
  return {
    id,
    senderId: from,
    receiverId: from === alice.id ? bob.id : alice.id,
    content,
    createdAt: new Date(T0 + minutesAfter * 60_000),
    readAt: read ? new Date(T0 + (minutesAfter + 1) * 60_000) : null,
    clientId: null,
  };
}

function server(items: OutputOf<'messages.send'>[], overrides: Parameters<typeof fakeTrpc>[0] = {}) {
  return fakeTrpc({
    'auth.session': { data: { user: alice, isModerator: false } },
    'notifications.unreadCount': { data: { count: 0 } },
    'messages.unreadCount': { data: { count: 0 } },
    'messages.conversations': { data: [] },
    'messages.peer': {
      data: {
        userId: bob.id,
        username: bob.username,
        displayName: bob.displayName,
        avatarUrl: null,
        canMessage: true,
      },
    },
    'messages.thread': { data: { items, nextCursor: null } },
    'messages.markRead': { data: { ok: true, updated: 0 } },
    ...overrides,
  });
}

describe('messages on the Chat page', () => {
  it('links URLs, @mentions and #tags in both bubbles; the own bubble’s links are its own text colour', async () => {
    server([
      message('m1', bob.id, 'https://cubes.example/a @alice #Cubes', 0),
      message('m2', alice.id, 'https://cubes.example/only-a-url', 1),
      message('m3', alice.id, 'ask @bob about #cubes', 2),
    ]);
    renderApp(`/chat?user=${bob.id}`);
    await sessionKnown();
    const thread = await screen.findByRole('region', { name: 'Thread' });
    const bubbles = await within(thread).findAllByRole('listitem');
    const links = (i: number) =>
      within(bubbles[i]!)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links(0)).toEqual([
      ['https://cubes.example/a', 'https://cubes.example/a'],
      ['@alice', '/profile/alice'],
      ['#Cubes', '/tags/cubes'],
    ]);
    expect(links(1)).toEqual([['https://cubes.example/only-a-url', 'https://cubes.example/only-a-url']]);
    expect(links(2)).toEqual([
      ['@bob', '/profile/bob'],
      ['#cubes', '/tags/cubes'],
    ]);
    // The own bubble is bg-primary: a text-primary link there is purple on purple, unseen.
    for (const i of [1, 2]) {
      for (const a of within(bubbles[i]!).getAllByRole('link')) {
        expect(a.className).not.toMatch(/\btext-primary\b/);
        expect(a.className).toMatch(/\bunderline\b/);
      }
    }
    for (const a of within(bubbles[0]!).getAllByRole('link')) expect(a.className).toMatch(/\bunderline\b/);
  });

  it('groups one sender’s messages with one time under each group, and shows Seen once', async () => {
    server([
      message('m1', alice.id, 'one', 0, true),
      message('m2', alice.id, 'two', 1, true),
      message('m3', alice.id, 'three', 2, true),
      message('m4', bob.id, 'reply', 10, false),
      message('m5', alice.id, 'four', 11, false),
    ]);
    renderApp(`/chat?user=${bob.id}`);
    await sessionKnown();
    const thread = await screen.findByRole('region', { name: 'Thread' });
    await within(thread).findByText('four');
    const bubbles = within(thread).getAllByRole('listitem');
    expect(bubbles.map((b) => b.querySelectorAll('time').length)).toEqual([0, 0, 1, 1, 1]);
    expect(within(thread).getAllByText('Seen')).toHaveLength(1);
    expect(within(bubbles[2]!).getByText('Seen')).toBeTruthy();
    expect(within(bubbles[4]!).getByText('Sent')).toBeTruthy();
    expect(within(thread).getAllByTestId('read-receipt')).toHaveLength(2);
  });

  it('starts a conversation with a member picked by name, searching as you type', async () => {
    const calls = server([], {
      'mentions.suggest': (input) => ({
        data: {
          users:
            input.q === 'bo'
              ? [
                  {
                    id: bob.id,
                    username: bob.username,
                    displayName: bob.displayName,
                    avatarUrl: null,
                    isFollowing: false,
                  },
                ]
              : [],
        },
      }),
    });
    renderApp('/chat');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search members' }), {
      target: { value: '@bo' },
    });
    fireEvent.click(await within(dialog).findByRole('button', { name: new RegExp(bob.displayName) }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New message' })).toBeNull());
    const thread = await screen.findByRole('region', { name: 'Thread' });
    expect(await within(thread).findByRole('heading', { name: bob.displayName })).toBeTruthy();
    expect(calls.called('mentions.suggest').some((c) => c.input.q === 'bo')).toBe(true);
  });
});
