/**
 * The Search page end to end: the 300 ms debounce, the tabs and their empty texts, the query in
 * the URL, a link to a profile and a Follow that persists; screenshots in both themes at 1280 and
 * 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { createPostViaUi, type NewUser, registerViaUi, setThemeViaUi, snap, uniqueUser } from './helpers';

async function searchRequests(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((n) => n.includes('search.query')),
  );
}

test.describe('search', () => {
  let author: NewUser;
  const word = `zebrafish${Date.now().toString(36)}`;

  test('finds posts and people as you type, forgives a typo, and follows from a card', async ({ page }) => {
    author = uniqueUser('srch');
    await registerViaUi(page, author);
    await createPostViaUi(page, `My ${word} swims in a café tank`);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();

    const reader = uniqueUser('rdr');
    await registerViaUi(page, reader);
    await page.goto('/search');
    await expect(page.getByRole('heading', { name: 'Suggested for you' })).toBeVisible();

    // `/` focuses the box; typing waits for a pause before it sends.
    await page.locator('body').press('/');
    const box = page.getByRole('searchbox', { name: 'Search' });
    await expect(box).toBeFocused();
    await page.evaluate(() => performance.clearResourceTimings());
    await box.pressSequentially(word.slice(0, 12), { delay: 40 });
    expect(await searchRequests(page)).toHaveLength(0);
    await expect(page).toHaveURL(new RegExp(`q=${word.slice(0, 12)}`));
    const posts = page.getByRole('region', { name: 'Posts' });
    await expect(posts.getByRole('article')).toHaveCount(1);
    await expect(posts.locator('mark')).toHaveText(word);
    expect((await searchRequests(page)).length).toBeLessThanOrEqual(2);

    // Accents are ignored and a typo is forgiven.
    await box.fill('cafe');
    await expect(page.getByRole('region', { name: 'Posts' }).getByText(word, { exact: false })).toBeVisible();
    await box.fill(word.replace('fish', 'fsh'));
    await expect(page.getByRole('region', { name: 'Posts' }).locator('mark')).toHaveText(word);
    // A prefix of a username finds its owner.
    await box.fill(author.username.slice(0, -1));
    const card = page.getByRole('article', { name: author.displayName });
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: `Follow ${author.displayName}` }).click();
    await expect(card.getByText('1 follower')).toBeVisible();
    await expect(card.getByRole('button', { name: `Unfollow ${author.displayName}` })).toBeVisible();

    // Tabs and their empty texts.
    await page.getByRole('tab', { name: 'Posts' }).click();
    await expect(page.getByText('No posts found')).toBeVisible();
    await page.getByRole('tab', { name: 'AI Media' }).click();
    await expect(page.getByText('No AI media found')).toBeVisible();
    await page.getByRole('tab', { name: 'Users' }).click();
    await expect(page.getByRole('article', { name: author.displayName })).toBeVisible();

    // The query survives a reload; Escape clears it; Back returns to it.
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(author.username.slice(0, -1));
    await page.getByRole('searchbox', { name: 'Search' }).press('Escape');
    await expect(page.getByRole('heading', { name: 'Suggested for you' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(author.username.slice(0, -1));

    // The profile link, where the follow persisted.
    await page.getByRole('article', { name: author.displayName }).getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/profile/${author.username}$`));
    await expect(page.getByRole('button', { name: /Unfollow/ })).toBeVisible();
  });

  test('no results, and screenshots in both themes at 1280 and 390 px', async ({ page }) => {
    await page.goto('/search?q=qqqxxyyzz');
    await expect(page.getByText('No results found')).toBeVisible();
    await page.goto(`/search?q=${word.slice(0, 9)}`);
    await expect(page.getByRole('region', { name: 'Posts' })).toBeVisible();
    for (const theme of ['light', 'dark'] as const) {
      await setThemeViaUi(page, theme);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await snap(page, `search-${theme}-${width}`);
      }
    }
  });
});
