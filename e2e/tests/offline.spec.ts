/**
 * The installable app: the server answers its files (favicon, robots.txt, the manifest and the
 * service worker, never the HTML page); the service worker installs, and a reload without a
 * network shows the app shell with "You're offline" (both themes, screenshots) instead of the
 * browser's error page, while /api answers are never served from its cache.
 */
import { expect, type Page, test } from '@playwright/test';
import { signUp, snap, uniqueUser } from './helpers.js';

async function waitForWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // clients.claim() in the worker's activate step: this page is now controlled by it.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('the app files are files, with the caching they need', async ({ request }) => {
  const favicon = await request.get('/favicon.ico');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toContain('image/');
  const robots = await request.get('/robots.txt');
  expect(robots.headers()['content-type']).toContain('text/plain');
  expect(await robots.text()).toContain('User-agent: *');
  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toContain('application/manifest+json');
  const body = await manifest.json();
  expect(body.display).toBe('standalone');
  expect(
    body.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`),
  ).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  for (const icon of body.icons as { src: string; type: string }[]) {
    const answer = await request.get(icon.src);
    expect(answer.status(), icon.src).toBe(200);
    expect(answer.headers()['content-type'], icon.src).toBe(icon.type);
  }
  const apple = await request.get('/apple-touch-icon.png');
  expect(apple.headers()['content-type']).toBe('image/png');
  const worker = await request.get('/sw.js');
  expect(worker.headers()['content-type']).toContain('javascript');
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(await worker.text()).toContain('__CUBES_PRECACHE__');
});

test('offline, a reload shows the shell and says so; /api is not answered from a cache', async ({
  page,
  context,
}) => {
  await signUp(page, uniqueUser('offline'));
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await waitForWorker(page);
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toHaveCount(0);

  await context.setOffline(true);
  await page.reload();
  const offline = page.getByRole('status').filter({ hasText: "You're offline" });
  await expect(offline).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cubes AI' }).first()).toBeVisible();
  await snap(page, 'offline-home-light');

  // The session's answers stay between the page and the server: offline, they fail.
  const api = await page.evaluate(() =>
    fetch('/api/auth/me').then(
      (r) => `answered ${r.status}`,
      () => 'failed',
    ),
  );
  expect(api).toBe('failed');

  // Another page (a lazy route) and the dark theme, from the precache alone.
  await page.evaluate(() => localStorage.setItem('cubes-theme', 'dark'));
  await page.goto('/search');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(offline).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Search', exact: true })).toBeVisible();
  await snap(page, 'offline-search-dark');

  // Back online: the banner goes, and pages load from the server again.
  await context.setOffline(false);
  await expect(offline).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});
