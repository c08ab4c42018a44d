/**
 * The Search page end to end: the 300 ms debounce, the tabs and their empty texts, the query in
 * the URL, a link to a profile and a Follow that persists; screenshots in both themes at 1280 and
 * 390 px. A post result is a post card: opened, liked, replied to, its tags and mentions linked
 * (photographed and checked with axe: shootAndAudit).
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  createPostViaUi,
  type NewUser,
  newMember,
  PHOTO_THEMES,
  setThemeViaUi,
  shootAndAudit,
  signUp,
  snap,
  uniqueUser,
} from './helpers';

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
    await signUp(page, author);
    await createPostViaUi(page, `My ${word} swims in a café tank`);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();

    const reader = uniqueUser('rdr');
    await signUp(page, reader);
    await page.goto('/search');
    await expect(page.getByRole('heading', { name: 'Suggested for you' })).toBeVisible();

    // `/` focuses the box (once the page has hydrated: the box is read-only until then);
    // typing waits for a pause before it sends (300 ms, search-view.test.tsx with a fake clock).
    // Here only that twelve keys did not make twelve requests: on a busy machine a gap between two
    // keys can outlast the pause, so how many it made depends on the load.
    const box = page.getByRole('searchbox', { name: 'Search' });
    await expect(box).toBeEditable();
    await page.locator('body').press('/');
    await expect(box).toBeFocused();
    await page.evaluate(() => performance.clearResourceTimings());
    const typed = word.slice(0, 12);
    await box.pressSequentially(typed, { delay: 40 });
    await expect(page).toHaveURL(new RegExp(`q=${typed}`));
    const posts = page.getByRole('region', { name: 'Posts' });
    await expect(posts.getByRole('article')).toHaveCount(1);
    await expect(posts.locator('mark')).toHaveText(word);
    const sent = await searchRequests(page);
    expect(sent.length).toBeLessThan(typed.length / 2);
    expect(sent.at(-1)).toContain(encodeURIComponent(`"q":"${typed}"`));

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
    // The server rendered the page: its box takes keys once the app has hydrated it (read-only
    // until then; React drops a key pressed on the page before its code has arrived).
    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeEditable();
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
    for (const theme of PHOTO_THEMES) {
      await setThemeViaUi(page, theme);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await snap(page, `search-${theme}-${width}`);
      }
    }
  });
});

test.describe('search results', () => {
  /** A member who wrote a post with a mention and a tag, and a way to open its search results. */
  async function resultOf(browser: Browser) {
    const { context, page } = await newMember(browser, 'srpc');
    const feed = (await (await page.request.get('/api/posts/feed?limit=5')).json()) as { username: string }[];
    const someone = feed[0]!.username;
    const word = `zebra${Date.now().toString(36)}`;
    await createPostViaUi(page, `Stacking ${word} cubes with @${someone} #voxel`);
    const results = async () => {
      await page.goto(`/search?q=${word}&tab=posts`);
      await expect(page.getByRole('article', { name: /^Post by / })).toBeVisible();
    };
    return { context, page, someone, word, results };
  }

  test('a search result is a post card: opened, liked, replied to, with its tags and mentions linked', async ({
    browser,
  }) => {
    const { context, page, someone, word, results } = await resultOf(browser);
    await results();
    const card = page.getByRole('article', { name: /^Post by / });
    await expect(card.locator('mark', { hasText: word })).toBeVisible();
    await expect(card.getByRole('link', { name: '#voxel' })).toHaveAttribute('href', '/tags/voxel');
    await expect(card.getByRole('link', { name: `@${someone}` })).toHaveAttribute(
      'href',
      `/profile/${someone}`,
    );
    await card.getByRole('button', { name: /^Like,/ }).click();
    await expect(card.getByRole('button', { name: 'Unlike, 1 like' })).toBeVisible();
    await card.getByRole('button', { name: /^Comments,/ }).click();
    await expect(card.getByRole('textbox', { name: /comment/i })).toBeVisible();
    // Opened: its time links to the post's own page.
    await card.getByRole('link', { name: /open the post/ }).click();
    await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('article', { name: /^Post by / })).toContainText(word);
    await context.close();
  });

  test('a post result in both themes at both widths', async ({ browser }) => {
    const { context, page, results } = await resultOf(browser);
    await results();
    await shootAndAudit(page, 'search-result-cards', { prepare: results });
    await context.close();
  });
});
