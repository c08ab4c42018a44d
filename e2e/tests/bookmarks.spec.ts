import { expect, type Page, test } from '@playwright/test';
import {
  answerTo,
  createPostViaUi,
  DESKTOP,
  MOBILE,
  newPage,
  postCard,
  signUp,
  snapAll,
  uniqueUser,
} from './helpers.js';

/** The Bookmarks screen through the avatar menu. */
async function openBookmarks(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Bookmarks' }).click();
  await expect(page).toHaveURL(/\/bookmarks$/);
  await expect(page.getByRole('heading', { name: 'Bookmarks', level: 1 })).toBeVisible();
}

test.describe('bookmarks', () => {
  test('a bookmark survives a reload, shows on the Bookmarks screen, is private, and can be taken back', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const author = uniqueUser('author');
    const reader = uniqueUser('reader');
    const authorPage = await newPage(browser);
    const readerPage = await newPage(browser);
    await signUp(authorPage, author);
    const text = `A cube worth keeping, by ${author.username}`;
    await createPostViaUi(authorPage, text);

    await signUp(readerPage, reader);
    const card = postCard(readerPage, text);
    await expect(card).toBeVisible();
    // The button turns before the server answers; a reload before then would cancel the request.
    const added = answerTo(readerPage, 'bookmarks.add');
    await card.getByRole('button', { name: 'Bookmark', exact: true }).click();
    await expect(card.getByRole('button', { name: 'Remove bookmark' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await added;
    await readerPage.reload();
    await expect(postCard(readerPage, text).getByRole('button', { name: 'Remove bookmark' })).toBeVisible();

    await openBookmarks(readerPage);
    const list = readerPage.getByRole('list', { name: 'Bookmarks' });
    await expect(list.getByRole('article')).toHaveCount(1);
    await expect(list.getByRole('article').first()).toContainText(text);
    await snapAll(readerPage, 'bookmarks-list');

    // Private: the author's own Bookmarks screen is empty, and their card shows no mark.
    await openBookmarks(authorPage);
    await expect(authorPage.getByText('No bookmarks yet')).toBeVisible();
    await authorPage.goto('/');
    await expect(
      postCard(authorPage, text).getByRole('button', { name: 'Bookmark', exact: true }),
    ).toBeVisible();

    // Taken back from the Bookmarks screen: the card stays until the screen is opened again.
    const removed = answerTo(readerPage, 'bookmarks.remove');
    await list.getByRole('button', { name: 'Remove bookmark' }).click();
    await expect(list.getByRole('button', { name: 'Bookmark', exact: true })).toBeVisible();
    await removed;
    await readerPage.reload();
    await expect(readerPage.getByText('No bookmarks yet')).toBeVisible();
    await snapAll(readerPage, 'bookmarks-empty');
    await Promise.all([authorPage.context().close(), readerPage.context().close()]);
  });
});

test.describe('the side column', () => {
  test('Home, Search and a profile show Who to follow at 1280 px; at 390 px it moves into Search', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const me = uniqueUser('side');
    const page = await newPage(browser);
    await signUp(page, me);

    const column = page.getByRole('complementary', { name: 'Suggestions' });
    await expect(column.getByRole('heading', { name: 'Who to follow' })).toBeVisible();
    const people = column.getByRole('list', { name: 'Members to follow' });
    await expect(people.getByRole('listitem').first()).toBeVisible();
    // Following someone from the column works (the demo community is there to suggest).
    const first = people.getByRole('listitem').first();
    const name = (await first.getByRole('link').first().textContent())?.trim() ?? '';
    await first.getByRole('button', { name: `Follow ${name}` }).click();
    await expect(first.getByRole('button', { name: `Unfollow ${name}` })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // Pressed at once; enabled again once the server has it (leaving before would cancel it).
    await expect(first.getByRole('button', { name: `Unfollow ${name}` })).toBeEnabled();
    await page.goto('/profile');
    await expect(page.getByRole('list', { name: 'Profile stats' })).toContainText('1 following');

    await page.goto('/');
    await expect(column).toBeVisible();
    await snapAll(page, 'side-column-home', async () => {
      await page.evaluate(() => window.scrollTo(0, 0));
    });

    await page.setViewportSize(MOBILE);
    await expect(column).toHaveCount(0);
    await page.goto('/search');
    await expect(page.getByRole('heading', { name: 'Suggested for you' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Who to follow' })).toBeVisible();
    await expect(column).toHaveCount(0);
    await page.setViewportSize(DESKTOP);
    await expect(column.getByRole('heading', { name: 'Who to follow' })).toBeVisible();
    await snapAll(page, 'side-column-search');

    await page.goto(`/profile/${me.username}`);
    await expect(column.getByRole('heading', { name: 'Who to follow' })).toBeVisible();
    await snapAll(page, 'side-column-profile');
    await page.context().close();
  });
});
