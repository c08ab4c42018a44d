import { describe, expect, it } from 'vitest';
import { pageMatches } from './app';
import GalleryPage from './routes/gallery';
import { LAZY_PAGES } from './routes/pages';
import PostRoute from './routes/post';
import ProfilePage from './routes/profile';
import TagPage from './routes/tag';
import UserProfilePage from './routes/user-profile';

const pagesOf = async (pathname: string) =>
  Promise.all(pageMatches(pathname).map(async ({ page }) => (await page.load()).default));

describe('pageMatches', () => {
  it('finds the lazy page a path lands on in the route table', async () => {
    expect(await pagesOf('/gallery')).toEqual([GalleryPage]);
    expect(await pagesOf('/profile')).toEqual([ProfilePage]);
    expect(await pagesOf('/profile/bob')).toEqual([UserProfilePage]);
    expect(await pagesOf('/tags/pixel_art')).toEqual([TagPage]);
    expect(await pagesOf('/posts/9a1b0c8e-0000-4000-8000-000000000010')).toEqual([PostRoute]);
  });

  it('finds none for home, which is not lazy, or an unknown path', () => {
    expect(pageMatches('/')).toEqual([]);
    expect(pageMatches('/no/such/page')).toEqual([]);
  });

  it('has a route for every module in routes/ but home and the 404 page, which are in the first chunk', () => {
    const files = Object.keys(import.meta.glob(['./routes/*.tsx', '!./routes/*.test.tsx']));
    const lazy = LAZY_PAGES.map(({ module }) => `./routes/${module}.tsx`);
    expect([...lazy, './routes/home.tsx', './routes/not-found.tsx'].sort()).toEqual(files.sort());
    for (const { path } of LAZY_PAGES)
      expect(pageMatches(`/${path.replace(/:\w+/, 'x')}`), path).toHaveLength(1);
  });
});
