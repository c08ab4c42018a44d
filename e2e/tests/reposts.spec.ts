/**
 * Reposts and pinned posts in the browser: a member reposts a post from its page, a follower of
 * theirs finds it in their Following feed under "Reposted by …", the author is told, and the
 * reposter's profile lists it; a member quotes a post, which shows under their words until it is
 * deleted ("This post is unavailable"); an author pins a post, which leads their profile with "Pinned".
 * Photographed and checked with axe at 1280 and 390 px in both themes.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { answerTo, CONTEXT, postCard, postOverApi, registerOverApi, shootAndAudit } from './helpers.js';

/**
 * Presses `from` until `to` shows. A page the server rendered takes clicks only once it has
 * hydrated: the answer the click brings (the button's new name) is the signal, not a delay.
 */
async function pressUntil(card: Locator, from: RegExp, to: RegExp): Promise<void> {
  await expect(async () => {
    if ((await card.getByRole('button', { name: to }).count()) === 0) {
      await card.getByRole('button', { name: from }).click();
    }
    await expect(card.getByRole('button', { name: to })).toBeVisible({ timeout: 2_000 });
  }).toPass();
}

async function openFollowing(page: Page): Promise<void> {
  await page.goto('/');
  const following = page.getByRole('tablist', { name: 'Feeds' }).getByRole('tab', { name: 'Following' });
  await expect(async () => {
    await following.click();
    await expect(following).toHaveAttribute('aria-selected', 'true', { timeout: 2_000 });
  }).toPass();
}

test('a repost reaches the reposter’s followers with its line, tells the author, and shows on their profile', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const authorContext = await browser.newContext(CONTEXT);
  const reposterContext = await browser.newContext(CONTEXT);
  const readerContext = await browser.newContext(CONTEXT);
  const author = await registerOverApi(authorContext, 'author');
  const reposter = await registerOverApi(reposterContext, 'reposter');
  await registerOverApi(readerContext, 'reader');
  await postOverApi(readerContext.request, `/api/users/${reposter.id}/follow`, {});
  const text = `A cube worth passing on, by ${author.username}, with a long unbroken word ${'x'.repeat(80)}`;
  const { post } = (await postOverApi(authorContext.request, '/api/posts', { content: text })) as {
    post: { id: string };
  };

  // The reposter reposts it from its page.
  const reposterPage = await reposterContext.newPage();
  await reposterPage.goto(`/posts/${post.id}`);
  const card = postCard(reposterPage, 'A cube worth passing on');
  // The button turns at once (optimistic); what the others' pages show is the server's answer.
  const added = answerTo(reposterPage, 'reposts.add');
  await pressUntil(card, /^Repost,/, /^Undo repost,/);
  await added;
  await expect(card.getByRole('button', { name: 'Undo repost, 1 repost' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // Kept after a reload.
  await reposterPage.reload();
  await expect(
    postCard(reposterPage, 'A cube worth passing on').getByRole('button', { name: /^Undo repost,/ }),
  ).toBeVisible();

  // The reader follows the reposter, not the author: the post comes by the repost, with its line.
  const readerPage = await readerContext.newPage();
  await openFollowing(readerPage);
  const reposted = readerPage.getByRole('article', {
    name: `Post by ${author.displayName}, reposted by ${reposter.displayName}`,
  });
  await expect(reposted).toContainText(`Reposted by ${reposter.displayName}`);
  await expect(reposted.getByRole('button', { name: 'Repost, 1 repost' })).toBeVisible();
  await shootAndAudit(readerPage, 'reposts-following', {
    prepare: async () => {
      await expect(reposted).toBeVisible();
      await reposted.scrollIntoViewIfNeeded();
    },
    close: async () => {},
  });
  // Its line leads to the reposter's profile, whose Posts tab lists the repost too.
  await reposted.getByRole('link', { name: reposter.displayName, exact: true }).first().click();
  await expect(readerPage).toHaveURL(new RegExp(`/profile/${reposter.username}$`));
  await expect(readerPage.getByRole('article', { name: /reposted by/ })).toContainText(
    `Reposted by ${reposter.displayName}`,
  );

  // The author is told.
  const authorPage = await authorContext.newPage();
  await authorPage.goto('/notifications');
  await expect(authorPage.getByText(`${reposter.username} reposted your post`)).toBeVisible();

  // Taken back: it leaves the reader's Following feed, read once the reposter's page has its answer
  // (the button turns at once, before the server has the removal).
  const removed = answerTo(reposterPage, 'reposts.remove');
  await pressUntil(card, /^Undo repost,/, /^Repost,/);
  await removed;
  await openFollowing(readerPage);
  await expect(readerPage.getByText('A cube worth passing on')).toHaveCount(0);
  await Promise.all([authorContext.close(), reposterContext.close(), readerContext.close()]);
});

test('a pinned post leads its author’s profile with “Pinned”', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext(CONTEXT);
  const me = await registerOverApi(context, 'pinner');
  const first = `The first post of ${me.username}`;
  await postOverApi(context.request, '/api/posts', { content: first });
  await postOverApi(context.request, '/api/posts', { content: `A later post of ${me.username}` });
  const page = await context.newPage();
  await page.goto(`/profile/${me.username}`);
  const card = postCard(page, first);
  await expect(async () => {
    await card.getByRole('button', { name: 'Post actions' }).click();
    await expect(page.getByRole('menuitem', { name: 'Pin to profile' })).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await page.getByRole('menuitem', { name: 'Pin to profile' }).click();
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText('Pinned to your profile'),
  ).toBeVisible();
  const list = page.getByRole('list', { name: 'Posts' });
  await expect(list.getByRole('article').first()).toContainText(first);
  await expect(list.getByRole('article').first()).toContainText('Pinned');
  await page.reload();
  await expect(page.getByRole('list', { name: 'Posts' }).getByRole('article').first()).toContainText(
    'Pinned',
  );
  await shootAndAudit(page, 'reposts-pinned', {
    prepare: async () => {
      await expect(page.getByRole('list', { name: 'Posts' }).getByRole('article').first()).toContainText(
        'Pinned',
      );
    },
    close: async () => {},
  });
  // Unpinned: back in its place, without the label.
  const pinned = page.getByRole('list', { name: 'Posts' }).getByRole('article').first();
  await expect(async () => {
    await pinned.getByRole('button', { name: 'Post actions' }).click();
    await expect(page.getByRole('menuitem', { name: 'Unpin from profile' })).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await page.getByRole('menuitem', { name: 'Unpin from profile' }).click();
  await expect(page.getByRole('list', { name: 'Posts' }).getByRole('article').last()).toContainText(first);
  await expect(page.getByRole('list', { name: 'Posts' }).getByText('Pinned', { exact: true })).toHaveCount(0);
  await context.close();
});

test('a quote shows the quoted post under the quoter’s words, and says so once it is gone', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const authorContext = await browser.newContext(CONTEXT);
  const quoterContext = await browser.newContext(CONTEXT);
  const author = await registerOverApi(authorContext, 'quoted');
  await registerOverApi(quoterContext, 'quoter');
  const original = `Words worth quoting, by ${author.username}`;
  const { post } = (await postOverApi(authorContext.request, '/api/posts', { content: original })) as {
    post: { id: string };
  };
  const page = await quoterContext.newPage();
  await page.goto(`/posts/${post.id}`);
  const card = postCard(page, original);
  const dialog = page.getByRole('dialog', { name: 'Quote post' });
  await expect(async () => {
    await card.getByRole('button', { name: 'Quote' }).click();
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await expect(
    dialog.getByRole('link', { name: new RegExp(`^Quoted post by ${author.displayName}`) }),
  ).toBeVisible();
  const mine = `My take on it ${Date.now()}`;
  await dialog.getByLabel('Your post').fill(mine);
  await dialog.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText('Post created successfully!'),
  ).toBeVisible();

  await page.goto('/');
  const quoting = postCard(page, mine);
  const embedded = quoting.getByRole('link', { name: new RegExp(`^Quoted post by ${author.displayName}`) });
  await expect(embedded).toContainText(original);
  await shootAndAudit(page, 'reposts-quote', {
    prepare: async () => {
      await expect(embedded).toBeVisible();
      await quoting.scrollIntoViewIfNeeded();
    },
    close: async () => {},
  });
  await embedded.click();
  await expect(page).toHaveURL(new RegExp(`/posts/${post.id}$`));

  // The author is told, and deleting the original leaves "This post is unavailable".
  const authorPage = await authorContext.newPage();
  await authorPage.goto('/notifications');
  await expect(authorPage.getByText('quoted your post')).toBeVisible();
  const res = await authorContext.request.delete(`/api/posts/${post.id}`);
  expect(res.status()).toBe(200);
  await page.goto('/');
  await expect(postCard(page, mine)).toContainText('This post is unavailable');
  await Promise.all([authorContext.close(), quoterContext.close()]);
});
