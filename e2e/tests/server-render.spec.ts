/**
 * Pages rendered on the server (issue #48), in Chromium: a visitor without JavaScript reads them;
 * with JavaScript the page hydrates with no console error and asks the API for nothing the HTML
 * carried; a member's home, Chat and Settings come with their data and hydrate the same way.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import { baseURL } from '../servers';
import { appStarted, CONTEXT, postOverApi, registerOverApi } from './helpers';

/** The console's errors and the page's uncaught ones (a hydration mismatch is one of them). */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The tRPC procedures the page asks for over HTTP (`posts.feed`, `users.byUsername`, …). */
function callsOf(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/trpc/'))
      calls.push(
        ...url.pathname
          .slice('/trpc/'.length)
          .split(',')
          .map((path) => `${path} ${url.searchParams.get('input') ?? ''}`),
      );
  });
  return calls;
}

/** An author with a post, made over the API in a context of its own. */
async function authorWithPost(browser: Browser, text: string) {
  const context = await browser.newContext({ baseURL });
  const author = await registerOverApi(context, 'ssr');
  const { post } = (await postOverApi(context.request, '/api/posts', { content: text })) as {
    post: { id: string };
  };
  await context.close();
  return { author, postId: post.id };
}

test('a visitor without JavaScript reads the feed and a profile as the server rendered them', async ({
  browser,
}) => {
  const text = `Rendered without script ${Date.now()}`;
  const { author } = await authorWithPost(browser, text);
  const context = await browser.newContext({ ...CONTEXT, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('article').filter({ hasText: text })).toBeVisible();
  await page.goto(`/profile/${author.username}`);
  await expect(page.getByRole('heading', { name: author.displayName })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: text })).toBeVisible();
  await expect(page).toHaveTitle(`${author.displayName} (@${author.username}) · Cubes AI`);
  await context.close();
});

test('a visitor without JavaScript reads a post’s page: the post and its comments', async ({ browser }) => {
  const text = `A permalink read without script ${Date.now()}`;
  const { postId } = await authorWithPost(browser, text);
  const commenter = await browser.newContext({ baseURL });
  await registerOverApi(commenter, 'ssrc');
  await postOverApi(commenter.request, `/api/posts/${postId}/comments`, { content: 'A comment in the HTML' });
  await commenter.close();
  const context = await browser.newContext({ ...CONTEXT, javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto(`/posts/${postId}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('article').filter({ hasText: text })).toBeVisible();
  await expect(page.getByText('A comment in the HTML')).toBeVisible();
  const description = await page.locator('meta[property="og:description"]').getAttribute('content');
  expect(description).toBe(text);
  await context.close();
});

test('with JavaScript a rendered page hydrates with no error and asks again for nothing it carried', async ({
  browser,
}) => {
  const text = `Hydrated from the HTML ${Date.now()}`;
  const { author } = await authorWithPost(browser, text);
  const context = await browser.newContext(CONTEXT);
  const page = await context.newPage();
  const errors = errorsOf(page);
  const calls = callsOf(page);

  await page.goto(`/profile/${author.username}`);
  await expect(page.getByRole('article').filter({ hasText: text })).toBeVisible();
  // Hydrated: the page answers a click (the profile's tabs switch client-side).
  await appStarted(page);
  await page.getByRole('tab', { name: 'Media' }).click();
  await expect(page.getByRole('tab', { name: 'Media' })).toHaveAttribute('aria-selected', 'true');
  expect(calls.filter((call) => /^(users\.byUsername|users\.posts|auth\.session) /.test(call))).toEqual([]);

  calls.length = 0;
  await page.goto('/');
  await expect(page.getByRole('article').filter({ hasText: text })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Join the community' })).toBeVisible();
  // The feed's first page and the session came with the HTML (the one-post poll for news is not it).
  expect(calls.filter((call) => call.startsWith('auth.session'))).toEqual([]);
  expect(calls.filter((call) => call.startsWith('posts.feed') && call.includes('"limit":20'))).toEqual([]);
  // A link goes on inside the app, without a reload.
  await appStarted(page);
  await page.getByRole('link', { name: 'Gallery', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'AI Gallery' })).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});

test('a member’s home, Chat and Settings come with their data, hydrate with no error and ask again for none of it (but Settings’ hidden address)', async ({
  browser,
}) => {
  const context = await browser.newContext({ ...CONTEXT, baseURL });
  const member = await registerOverApi(context, 'own');
  const text = `My own rendered post ${Date.now()}`;
  await postOverApi(context.request, '/api/posts', { content: text });
  const page = await context.newPage();
  const errors = errorsOf(page);
  const html = await (await context.request.get('/')).text();
  expect(html).toContain(text);
  expect(html).not.toContain(member.email);
  const calls = callsOf(page);
  await page.goto('/');
  await expect(
    page.getByRole('heading', { name: `Hi ${member.displayName}, here is what's new` }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Join the community' })).toHaveCount(0);
  await appStarted(page);
  // Hydrated: the feed's tabs switch client-side, and the choice is kept for the next render.
  await page.getByRole('tab', { name: 'Following' }).click();
  await expect(page.getByRole('tab', { name: 'Following' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('article').filter({ hasText: text })).toBeVisible();
  // The session and the feed's first page came with the HTML (the one-post poll for news is not it).
  expect(calls.filter((call) => call.startsWith('auth.session'))).toEqual([]);
  expect(
    calls.filter(
      (call) => call.startsWith('posts.feed') && call.includes('"limit":20') && !call.includes('following'),
    ),
  ).toEqual([]);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Following' })).toHaveAttribute('aria-selected', 'true');

  calls.length = 0;
  await page.goto('/chat');
  await expect(page.getByRole('heading', { name: 'Chat', exact: true })).toBeVisible();
  await expect(page.getByText('No conversations yet')).toBeVisible();
  await appStarted(page);
  expect(calls.filter((call) => call.startsWith('auth.session'))).toEqual([]);

  // Settings: their settings come with the HTML, but not their hidden address, which the page
  // asks for once it has hydrated.
  expect(await (await context.request.get('/settings')).text()).not.toContain(member.email);
  calls.length = 0;
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
  await expect(page.getByLabel('Display name')).toHaveValue(member.displayName);
  await appStarted(page);
  await expect(page.getByText(`Currently ${member.email}.`)).toBeVisible();
  expect(calls.filter((call) => call.startsWith('auth.session'))).toEqual([]);
  expect(calls.filter((call) => call.startsWith('settings.get'))).toHaveLength(1);
  expect(errors).toEqual([]);
  await context.close();
});

test('a dark device’s rendered page stays dark through hydration', async ({ browser }) => {
  const context = await browser.newContext({ ...CONTEXT, colorScheme: 'dark' });
  const page = await context.newPage();
  // Every class <html> takes, from theme-init.js's on: the document's, whichever element it is.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { htmlClasses: string[] }).htmlClasses = seen;
    new MutationObserver((records) => {
      for (const record of records)
        if (record.target === document.documentElement) seen.push(document.documentElement.className);
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  await page.goto('/search?q=cube');
  // Hydrated: the box takes typing.
  await expect(page.getByRole('searchbox', { name: 'Search' })).toBeEditable();
  await appStarted(page);
  // Read as light while hydrating, the theme turned the page light, then dark again.
  expect(await page.evaluate(() => (window as unknown as { htmlClasses: string[] }).htmlClasses)).toEqual([
    'dark',
  ]);
  await context.close();
});

/**
 * A rendered page shows its boxes before the app has hydrated it. What is typed then would be lost
 * to the hydrating render, so they take no typing until the app has come; then they do.
 */
test('a rendered page’s boxes take typing once the app has hydrated, and keep it', async ({ browser }) => {
  for (const [path, box] of [
    ['/search?q=cube', (page: Page) => page.getByRole('searchbox', { name: 'Search' })],
    ['/', (page: Page) => page.getByPlaceholder("What's on your mind?")],
  ] as const) {
    const context = await browser.newContext({ ...CONTEXT, serviceWorkers: 'block' });
    const page = await context.newPage();
    // The app's scripts wait until released: the page is the server's HTML alone meanwhile.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(path, { waitUntil: 'commit' });
    await expect(box(page)).toBeVisible();
    await expect(box(page)).not.toBeEditable();
    release();
    await expect(box(page)).toBeEditable();
    await box(page).fill('typed after hydration');
    await expect(box(page)).toHaveValue('typed after hydration');
    await context.close();
  }
});
