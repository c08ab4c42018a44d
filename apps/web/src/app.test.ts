import { describe, expect, it } from 'vitest';
import { pageLoaders } from './app';
import GalleryPage from './routes/gallery';
import ProfilePage from './routes/profile';
import TagPage from './routes/tag';
import UserProfilePage from './routes/user-profile';

const pagesOf = async (pathname: string) =>
  Promise.all(pageLoaders(pathname).map(async (load) => ((await load()) as { default: unknown }).default));

describe('pageLoaders', () => {
  it('finds the lazy page a path lands on in the route table', async () => {
    expect(await pagesOf('/gallery')).toEqual([GalleryPage]);
    expect(await pagesOf('/profile')).toEqual([ProfilePage]);
    expect(await pagesOf('/profile/bob')).toEqual([UserProfilePage]);
    expect(await pagesOf('/tags/pixel_art')).toEqual([TagPage]);
  });

  it('finds none for home, which is not lazy, or an unknown path', () => {
    expect(pageLoaders('/')).toEqual([]);
    expect(pageLoaders('/no/such/page')).toEqual([]);
  });
});
