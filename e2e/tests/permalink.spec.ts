/**
 * A post's own page, its permalink (/posts/{id}, issue #48): a visitor reads the post, its
 * described image at full width and its comments there; a member likes and comments there and Back
 * returns to the feed they came from; Share copies the absolute permalink; a notification opens
 * it; an old /?post= link lands on it; an unknown id is "Post not found". The page, its loading
 * skeleton and its not-found state at 1280 and 390 px in both themes, checked with axe.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import {
  CONTEXT,
  pngFile,
  postOverApi,
  registerOverApi,
  shootAndAudit,
  toasts,
  widthsFor,
} from './helpers.js';

const ALT = 'A gradient cube face, blue fading to pink';

/** A finished upload of the member of `context` (signed PUT, then published): its object path. */
async function uploadOverApi(context: BrowserContext): Promise<string> {
  const { uploadURL } = (await postOverApi(context.request, '/api/objects/upload', {})) as {
    uploadURL: string;
  };
  const file = pngFile('cube.png', 480, 300);
  const put = await context.request.put(uploadURL, {
    data: file.buffer,
    headers: { 'content-type': file.mimeType },
  });
  expect(put.ok(), await put.text()).toBe(true);
  const acl = await context.request.put('/api/objects/set-acl', {
    data: { imageURL: uploadURL, visibility: 'public' },
  });
  expect(acl.ok(), await acl.text()).toBe(true);
  return ((await acl.json()) as { objectPath: string }).objectPath;
}

/**
 * An author's post with a described image and a comment from another member, written over REST.
 * `close` ends both contexts.
 */
async function postWithComment(browser: Browser) {
  const authorContext = await browser.newContext(CONTEXT);
  const readerContext = await browser.newContext(CONTEXT);
  const author = await registerOverApi(authorContext, 'plauthor');
  const reader = await registerOverApi(readerContext, 'plreader');
  const content = `A cube tower on its own page by ${author.username} #permalink`;
  const { post } = (await postOverApi(authorContext.request, '/api/posts', {
    content,
    images: [{ objectPath: await uploadOverApi(authorContext), alt: ALT }],
  })) as { post: { id: string } };
  const commentText = `Lovely tower, ${author.username}`;
  await postOverApi(readerContext.request, `/api/posts/${post.id}/comments`, { content: commentText });
  return {
    author,
    authorContext,
    reader,
    readerContext,
    post,
    content,
    commentText,
    close: async () => {
      await authorContext.close();
      await readerContext.close();
    },
  };
}

/** The post page's card, once its image has loaded. */
async function openPostPage(page: Page, postId: string, content: string) {
  await page.goto(`/posts/${postId}`);
  const card = page.getByRole('article', { name: /^Post by / });
  await expect(card).toContainText(content);
  const image = card.getByRole('img', { name: ALT });
  await expect
    .poll(() =>
      image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth),
    )
    .toBeGreaterThan(0);
  return card;
}

test.describe("a post's page", () => {
  test('a visitor reads the post, its image at full width with its description, and its comments; Back goes home', async ({
    browser,
  }) => {
    const setup = await postWithComment(browser);
    const visitor = await browser.newContext(CONTEXT);
    try {
      const page = await visitor.newPage();
      const card = await openPostPage(page, setup.post.id, setup.content);
      await expect(page.getByRole('heading', { level: 1, name: 'Post' })).toBeVisible();
      await expect(page).toHaveTitle(`Post by ${setup.author.displayName} · Cubes AI`);
      // The full image, as wide as the card's text, with its description as its name and under it.
      const image = card.getByRole('img', { name: ALT });
      await expect(image).toHaveAttribute('src', /^\/objects\/uploads\/[0-9a-f-]+$/);
      const text = card.getByText(setup.content);
      const [imageBox, textBox] = [await image.boundingBox(), await text.boundingBox()];
      expect(Math.abs(imageBox!.width - textBox!.width)).toBeLessThan(4);
      await expect(card.getByText(ALT, { exact: true })).toBeVisible();
      // The thread is open: the comment is there without a click.
      const thread = card.getByRole('region', { name: 'Comments' });
      await expect(thread).toContainText(setup.commentText);
      await expect(card.getByRole('link', { name: '#permalink' })).toHaveAttribute('href', '/tags/permalink');
      // Landed here from outside: Back goes home.
      await page.getByRole('link', { name: 'Back' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { name: 'Community feed' })).toBeVisible();
    } finally {
      await visitor.close();
      await setup.close();
    }
  });

  test('a member opens it from the feed, likes and comments there, and Back returns to the feed', async ({
    browser,
  }) => {
    const setup = await postWithComment(browser);
    try {
      const page = await setup.readerContext.newPage();
      await page.goto('/');
      const inFeed = page.getByRole('article').filter({ hasText: setup.content });
      await inFeed.getByRole('link', { name: /open the post/ }).click();
      await expect(page).toHaveURL(new RegExp(`/posts/${setup.post.id}$`));
      const card = page.getByRole('article', { name: /^Post by / });
      await expect(card.getByRole('region', { name: 'Comments' })).toContainText(setup.commentText);

      await card.getByRole('button', { name: 'Like, 0 likes' }).click();
      await expect(card.getByRole('button', { name: 'Unlike, 1 like' })).toBeVisible();
      const box = card.getByRole('textbox', { name: 'Write a comment' });
      await box.fill('Said on the post page');
      await card.getByRole('button', { name: 'Comment', exact: true }).click();
      await expect(card.getByRole('region', { name: 'Comments' })).toContainText('Said on the post page');
      await expect(card.getByRole('button', { name: 'Comments, 2 comments' })).toBeVisible();

      // Back to the feed it was opened from, which shows the like and the count.
      await page.getByRole('link', { name: 'Back' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(inFeed.getByRole('button', { name: 'Unlike, 1 like' })).toBeVisible();
      await expect(inFeed.getByRole('button', { name: 'Comments, 2 comments' })).toBeVisible();

      // Both are kept: the page again, fresh.
      await page.goto(`/posts/${setup.post.id}`);
      await expect(card.getByRole('button', { name: 'Unlike, 1 like' })).toBeVisible();
      await expect(card.getByRole('region', { name: 'Comments' })).toContainText('Said on the post page');
    } finally {
      await setup.close();
    }
  });

  test('Share copies the absolute permalink', async ({ browser, baseURL }) => {
    const setup = await postWithComment(browser);
    try {
      await setup.readerContext.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await setup.readerContext.newPage();
      // Chromium on Linux has no share sheet; the page copies the link instead.
      expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');
      const card = await openPostPage(page, setup.post.id, setup.content);
      await card.getByRole('button', { name: 'Share' }).click();
      const permalink = `${baseURL}/posts/${setup.post.id}`;
      await expect(toasts(page).getByText('Link copied')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(permalink);
      // It opens the same page in a new tab of anyone's.
      const other = await setup.authorContext.newPage();
      await other.goto(permalink);
      await expect(other.getByRole('article', { name: /^Post by / })).toContainText(setup.content);
    } finally {
      await setup.close();
    }
  });

  test("a notification of a comment or a like opens the post's page", async ({ browser }) => {
    const setup = await postWithComment(browser);
    try {
      await postOverApi(setup.readerContext.request, `/api/posts/${setup.post.id}/like`, {});
      const page = await setup.authorContext.newPage();
      await page.goto('/');
      await expect(page.getByTestId('notifications-badge')).toHaveText('2');
      await page.getByRole('button', { name: 'Notifications' }).click();
      const popover = page.getByRole('dialog', { name: 'Notifications list' });
      await popover
        .getByRole('listitem')
        .filter({ hasText: 'commented on your post' })
        .getByRole('button')
        .click();
      await expect(page).toHaveURL(new RegExp(`/posts/${setup.post.id}$`));
      const card = page.getByRole('article', { name: /^Post by / });
      await expect(card.getByRole('region', { name: 'Comments' })).toContainText(setup.commentText);
      await expect(card.getByRole('button', { name: 'Like, 1 like' })).toBeVisible();
      // The like's notification leads to the same page, and Back from there to the one before.
      await page.getByRole('button', { name: 'Notifications' }).click();
      await popover.getByRole('listitem').filter({ hasText: 'liked your post' }).getByRole('button').click();
      await expect(page).toHaveURL(new RegExp(`/posts/${setup.post.id}$`));
      await expect(popover).toBeHidden();
      await page.getByRole('link', { name: 'Back' }).click();
      await expect(page).toHaveURL(new RegExp(`/posts/${setup.post.id}$`));
      await page.getByRole('link', { name: 'Back' }).click();
      await expect(page).toHaveURL(/\/$/);
    } finally {
      await setup.close();
    }
  });

  test('an old /?post= link lands on the page, and an unknown id is not found', async ({ browser }) => {
    const setup = await postWithComment(browser);
    const visitor = await browser.newContext(CONTEXT);
    try {
      const page = await visitor.newPage();
      await page.goto(`/?post=${setup.post.id}`);
      await expect(page).toHaveURL(new RegExp(`/posts/${setup.post.id}$`));
      await expect(page.getByRole('article', { name: /^Post by / })).toContainText(setup.content);

      await page.goto('/posts/00000000-0000-4000-8000-000000000000');
      await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();
      await expect(page.getByText('This post does not exist or is no longer available.')).toBeVisible();
      await expect(page).toHaveTitle('Post not found · Cubes AI');
      await page.getByRole('link', { name: 'Go to home' }).click();
      await expect(page).toHaveURL(/\/$/);

      // A deleted post is gone the same way.
      const deleted = await setup.authorContext.request.delete(`/api/posts/${setup.post.id}`);
      expect(deleted.ok()).toBe(true);
      await page.goto(`/posts/${setup.post.id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();
    } finally {
      await visitor.close();
      await setup.close();
    }
  });

  // One theme per test: axe over three screens at two widths takes a while on a busy machine.
  for (const theme of ['light', 'dark'] as const) {
    test(`the page, its skeleton and its not-found state in the ${theme} theme at both widths`, async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const setup = await postWithComment(browser);
      try {
        const page = await setup.readerContext.newPage();
        await openPostPage(page, setup.post.id, setup.content);
        await shootAndAudit(page, 'post-page', {
          themes: [theme],
          widths: widthsFor(theme),
          prepare: async () => {
            await openPostPage(page, setup.post.id, setup.content);
          },
        });
        await shootAndAudit(page, 'post-page-not-found', {
          themes: [theme],
          widths: widthsFor(theme),
          prepare: async () => {
            await page.goto('/posts/00000000-0000-4000-8000-000000000000');
            await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();
          },
        });
        // The skeleton: the post's answer held on its way (never answered; dropped at the end). The
        // server renders the page with its post, and a link in the app finds the post in the
        // cache: the page is asked for as the service worker's offline shell asks (unrendered, the
        // app draws it).
        await page.route(/\/trpc\/[^?]*posts\.byId/, () => {});
        await page.setExtraHTTPHeaders({ 'x-cubes-shell': '1' });
        await shootAndAudit(page, 'post-page-loading', {
          themes: [theme],
          widths: widthsFor(theme),
          prepare: async () => {
            await page.goto(`/posts/${setup.post.id}`);
            await expect(page.getByRole('status').filter({ hasText: 'Loading post...' })).toBeVisible();
          },
        });
        await page.unrouteAll({ behavior: 'ignoreErrors' });
      } finally {
        await setup.close();
      }
    });
  }
});
