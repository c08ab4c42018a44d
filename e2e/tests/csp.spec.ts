/**
 * The Content Security Policy in a real browser: no 'unsafe-inline' for scripts, style elements
 * or stylesheets (style attributes alone may be inline: a page rendered on the server writes
 * React's style props as attributes), and walking the main screens — home, a post, the composer's dialogs and the upload dashboard,
 * menus, toasts, Cubes, search, the gallery, chat, settings, profiles, both themes — reports
 * no violation at all.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  createPostViaUi,
  pngFile,
  registerViaUi,
  setThemeViaUi,
  uniqueUser,
  uploadDialog,
} from './helpers.js';

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
}

async function violations(page: Page): Promise<Violation[]> {
  return page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp ?? []);
}

test('no CSP violations on the main screens', async ({ page }) => {
  test.setTimeout(120_000);
  const consoleCsp: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleCsp.push(message.text());
  });
  // Collected in every document the page loads, from the first script on.
  await page.addInitScript(() => {
    const store: unknown[] = [];
    (window as unknown as { __csp: unknown[] }).__csp = store;
    document.addEventListener('securitypolicyviolation', (e) => {
      store.push({
        directive: e.violatedDirective,
        blocked: e.blockedURI,
        sample: e.sample,
        source: e.sourceFile,
      });
    });
  });

  const seen: Violation[] = [];
  const check = async (where: string) => {
    const found = await violations(page);
    for (const v of found) seen.push({ ...v, source: `${where}: ${v.source}` });
  };

  const response = await page.goto('/');
  const csp = response!.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/style-src 'self'/);
  expect(csp.split(';').filter((directive) => directive.includes('unsafe-inline'))).toEqual([
    "style-src-attr 'unsafe-inline'",
  ]);
  await expect(page.getByRole('article').first()).toBeVisible();
  await check('home (visitor)');

  const user = uniqueUser('csp');
  await registerViaUi(page, user);
  await createPostViaUi(page, `Checking the policy ${user.username}`);
  await setThemeViaUi(page, 'dark');
  await setThemeViaUi(page, 'light');
  // Menus and dialogs (Radix portals, scroll locks) and Uppy's dashboard.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'AI Generate' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Media' }).click();
  const dashboard = uploadDialog(page);
  await expect(dashboard).toBeVisible();
  await dashboard
    .locator('input.uppy-Dashboard-input[type=file]:not([webkitdirectory])')
    .first()
    .setInputFiles(pngFile('policy.png'));
  await expect(dashboard.locator('img.uppy-Dashboard-Item-previewImg')).toBeVisible();
  await page.keyboard.press('Escape');
  await check('home (member), menus, dialogs, upload dashboard');

  for (const path of ['/cubes', '/search?q=cube', '/gallery', '/chat', '/settings', '/profile', '/nowhere']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await check(path);
  }

  expect(seen, JSON.stringify(seen, null, 2)).toEqual([]);
  expect(consoleCsp).toEqual([]);
});
