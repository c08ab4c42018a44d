import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bob, fakeTrpc, makePost, renderApp, sessionKnown } from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const profile = {
  user: { ...bob, email: null },
  stats: { followersCount: 0, followingCount: 0, postsCount: 1 },
  isFollowing: false,
  isBlocking: false,
  isBlockedBy: false,
  isMuting: false,
  isSuspended: false,
};

describe('profile Favorites and Media tabs', () => {
  it('show the favourited media and the posts with images, or their empty texts', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'users.byUsername': { data: profile },
      'users.posts': { data: { items: [], nextCursor: null } },
      'gallery.favoritesOf': {
        data: {
          items: [
            {
              id: '3f2c0d8e-0000-4000-8000-000000000401',
              type: 'art',
              title: 'Neon Lighthouse',
              imageUrl: '/objects/uploads/n',
              width: 640,
              height: 480,
              creator: { id: bob.id, username: 'bob', displayName: 'Bob Block', avatarUrl: null },
              createdAt: new Date().toISOString(),
              favoritesCount: 3,
              isFavorite: false,
            },
          ],
          nextCursor: null,
        },
      },
      'gallery.mediaOf': { data: { items: [], nextCursor: null } },
    });
    renderApp('/profile/bob');
    await sessionKnown();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Favorites' }));
    const favorites = await screen.findByRole('list', { name: 'Favorites' });
    expect(within(favorites).getByRole('img', { name: 'Neon Lighthouse' })).toBeTruthy();
    expect(server.called('gallery.favoritesOf')[0]!.input).toMatchObject({ userId: bob.id });

    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Media' }));
    expect(await screen.findByText('No media yet')).toBeTruthy();
  });

  it('links each image post of the Media tab to the post', async () => {
    const image = {
      url: '/objects/uploads/p',
      thumbUrl: '/objects/uploads/p.thumb',
      width: 800,
      height: 500,
      alt: null,
      sensitive: false,
    };
    const post = makePost({ imageUrl: image.url, images: [image], content: 'a picture' });
    fakeTrpc({
      'auth.session': { data: null },
      'users.byUsername': { data: profile },
      'users.posts': { data: { items: [post], nextCursor: null } },
      'gallery.mediaOf': { data: { items: [post], nextCursor: null } },
    });
    renderApp('/profile/bob');
    await sessionKnown();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Media' }));
    const media = await screen.findByRole('list', { name: 'Media' });
    expect(within(media).getByRole('link').getAttribute('href')).toBe(`/posts/${post.id}`);
  });
});
