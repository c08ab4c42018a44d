import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, bob, fakeTrpc, makePost, renderApp, serverError, sessionKnown } from '../../test/fake-trpc';
import { toastRegion } from '../../test/toasts';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('reposts on a post card', () => {
  it('says who reposted a post that came by a repost, linking to them', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': {
        data: {
          items: [
            makePost({
              repostedBy: { id: alice.id, username: 'alice', displayName: 'Alice Cube', avatarUrl: null },
              repostsCount: 2,
            }),
          ],
          nextCursor: null,
        },
      },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block, reposted by Alice Cube' });
    expect(card.textContent).toContain('Reposted by Alice Cube');
    expect(within(card).getByRole('link', { name: 'Alice Cube' }).getAttribute('href')).toBe(
      '/profile/alice',
    );
    expect(within(card).getByRole('button', { name: 'Repost, 2 reposts' })).toBeTruthy();
  });

  it('reposts at once and keeps the count the server answers', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [makePost({ repostsCount: 0 })], nextCursor: null } },
      'reposts.add': { data: { reposted: true, repostsCount: 5 } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: 'Repost, 0 reposts' }));
    const undo = await within(card).findByRole('button', { name: 'Undo repost, 5 reposts' });
    expect(undo.getAttribute('aria-pressed')).toBe('true');
  });

  it('puts the repost back and says so when the server fails', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [makePost({ repostsCount: 3, isReposted: true })], nextCursor: null } },
      'reposts.remove': serverError,
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: 'Undo repost, 3 reposts' }));
    await waitFor(() => expect(server.called('reposts.remove')).toHaveLength(1));
    const region = await toastRegion();
    expect(await within(region).findByText('Failed to update repost')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Undo repost, 3 reposts' })).toBeTruthy();
  });

  it('asks a visitor to log in and sends nothing', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [makePost({ userId: bob.id })], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: /^Repost,/ }));
    const region = await toastRegion();
    expect(await within(region).findByText('Please login to repost posts')).toBeTruthy();
    expect(server.called('reposts.add')).toHaveLength(0);
  });

  it('embeds a quoted post as a link to it, or says it is unavailable', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': {
        data: {
          items: [
            makePost({
              id: '9a1b0c8e-0000-4000-8000-000000000021',
              content: 'quoting one',
              quotePostId: '9a1b0c8e-0000-4000-8000-000000000011',
              quote: {
                id: '9a1b0c8e-0000-4000-8000-000000000011',
                userId: alice.id,
                username: 'alice',
                userDisplayName: 'Alice Cube',
                userAvatarUrl: null,
                content: 'the original words',
                contentWarning: null,
                imageUrl: null,
                imageSensitive: false,
                createdAt: new Date().toISOString(),
              },
            }),
            makePost({
              id: '9a1b0c8e-0000-4000-8000-000000000022',
              content: 'quoting a gone one',
              quotePostId: '9a1b0c8e-0000-4000-8000-000000000012',
              quote: null,
            }),
          ],
          nextCursor: null,
        },
      },
    });
    renderApp('/');
    await sessionKnown();
    const link = await screen.findByRole('link', { name: /^Quoted post by\s+Alice Cube/ });
    expect(link.getAttribute('href')).toBe('/posts/9a1b0c8e-0000-4000-8000-000000000011');
    const gone = screen.getByText('quoting a gone one').closest('article');
    expect(gone?.textContent).toContain('This post is unavailable');
  });

  it('asks a visitor to log in to quote', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: 'Quote' }));
    const region = await toastRegion();
    expect(await within(region).findByText('Please login to quote posts')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
