/**
 * Link cards (issue #49): a member posts a link to a page this test serves on 127.0.0.1 (the e2e
 * server runs with LINK_PREVIEW_ALLOW_PRIVATE=1), with Open Graph tags and an image. The post
 * shows at once without a card; the page's answer is held until the test has seen that, then the
 * card arrives live, without a reload, its image our own copy under /objects/. Photographed in
 * both themes at 1280 and 390 px, checked with axe; then the author removes it, and a post whose
 * preview was removed in the composer gets none (its page is never asked for).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { answerTo, newMember, pngFile, postCard, shootAndAudit, toasts } from './helpers';

const TITLE = 'Cube builders gather for the longest ever cube chain in the old harbour district';
const DESCRIPTION =
  'Hundreds of members brought their cubes to the harbour on Saturday to build a chain that wraps around the whole district, with live music & food.';

let server: http.Server;
let base = '';
const hits = new Map<string, number>();
/** The story page's answer waits for this: the test first sees the post without its card. */
let releaseStory: () => void = () => {};
const storyReleased = new Promise<void>((resolve) => {
  releaseStory = resolve;
});

test.beforeAll(async () => {
  const image = pngFile('og.png', 600, 315).buffer;
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/og.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(image);
      return;
    }
    const answer = () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>fallback</title>
        <meta property="og:title" content="${TITLE}">
        <meta property="og:description" content="${DESCRIPTION.replace('&', '&amp;')}">
        <meta property="og:site_name" content="Cube Harbour News">
        <meta property="og:image" content="/og.png"></head><body>story</body></html>`);
    };
    if (path === '/story') void storyReleased.then(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  releaseStory();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a link gets its card live; screenshots and axe; the author removes it; the composer can leave it out', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page, user } = await newMember(browser, 'linker');

  // The composer offers to leave the preview out once the text has a link.
  const text = `Read this: ${base}/story`;
  const box = page.getByPlaceholder("What's on your mind?");
  await box.fill(text);
  await expect(page.getByRole('button', { name: 'Remove link preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toasts(page).getByText('Post created successfully!')).toBeVisible();

  // The post is there at once, without a card: its page has not answered yet.
  const card = postCard(page, 'Read this:');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('link-card')).toHaveCount(0);
  releaseStory();

  // The card follows live (posts.onChange), no reload.
  const link = card.getByRole('link', { name: TITLE });
  await expect(link).toBeVisible({ timeout: 15_000 });
  await expect(link).toHaveAttribute('href', `${base}/story`);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');
  await expect(link).toContainText('Cube Harbour News');
  await expect(link).toContainText('live music & food');
  const img = link.locator('img');
  await expect(img).toHaveAttribute('src', /^\/objects\/uploads\/[0-9a-f-]{36}\/thumb$/);
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
    .toBe(true);
  expect(hits.get('/story')).toBe(1);
  expect(hits.get('/og.png')).toBe(1);

  // Both themes, both widths, photographed and checked with axe (0 serious or critical).
  await shootAndAudit(page, 'link-cards-feed', {
    prepare: async (width) => {
      // Drawn at its width from the start (the home column kept a desktop width after a resize
      // to 390 px, with or without a card: seen in this spec, not this feature's).
      if (width === '390') await page.reload();
      await expect(link).toBeVisible();
      await link.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'nearest' }));
    },
    close: async () => {},
  });
  // The post's own page shows it too.
  await page.goto(`/posts/${await card.getAttribute('data-post-id')}`);
  await expect(page.getByRole('link', { name: TITLE })).toBeVisible();
  await shootAndAudit(page, 'link-cards-post', { widths: ['390'], themes: ['dark'], close: async () => {} });

  // The author removes it: gone at once, and after a reload.
  const removed = answerTo(page, 'linkCards.remove');
  await page.getByRole('button', { name: 'Remove preview' }).click();
  await expect(page.getByRole('link', { name: TITLE })).toHaveCount(0);
  await removed;
  await page.reload();
  await expect(page.getByText('Read this:')).toBeVisible();
  await expect(page.getByRole('link', { name: TITLE })).toHaveCount(0);

  // Removed in the composer before posting: no card, and the page is never asked for.
  await page.goto('/');
  await box.fill(`No preview for ${base}/quiet please`);
  await page.getByRole('button', { name: 'Remove link preview' }).click();
  await expect(page.getByRole('button', { name: 'Show link preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toasts(page).getByText('Post created successfully!')).toBeVisible();
  const quiet = postCard(page, 'No preview for');
  await expect(quiet).toBeVisible();
  // A second post of the first link shows its card at once, from the preview kept for the URL.
  await box.fill(`Again ${base}/story`);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(postCard(page, 'Again').getByRole('link', { name: TITLE })).toBeVisible();
  expect(hits.get('/story')).toBe(1);
  await expect(quiet.getByTestId('link-card')).toHaveCount(0);
  expect(hits.get('/quiet')).toBeUndefined();
  expect(user.username).toBeTruthy();
  await context.close();
});
