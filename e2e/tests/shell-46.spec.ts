/**
 * Issue #46, the shell's part: an offline reload keeps the member (bug 3), focus never hides under
 * the sticky header (bug 6), toasts sit where no control lives (bug 9), drafts survive navigation
 * (bug 10), the System theme (bug 12) and a member's home without the visitors' hero. Each screen
 * is photographed at 1280 and 390 px in both themes and checked with axe (0 serious or critical).
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import {
  CONTEXT,
  DESKTOP,
  MOBILE,
  postCard,
  registerViaUi,
  setThemeViaUi,
  snap,
  toasts,
  uniqueUser,
} from './helpers.js';

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator} has no box`);
  return found;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Serious and critical axe findings on what the page shows now, one line each. */
async function axe(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${screen}: ${v.id} (${v.impact}) ${n.target.join(' ')}`));
}

/**
 * The screen in both themes at 1280 and 390 px: `prepare` brings it up (again after each change,
 * for menus), then a screenshot (test-output/screens/<name>-<theme>-<width>.png) and axe.
 */
async function everyWay(page: Page, name: string, prepare: () => Promise<void> = async () => {}) {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    for (const [width, viewport] of [
      ['1280', DESKTOP],
      ['390', MOBILE],
    ] as const) {
      await page.setViewportSize(viewport);
      await setThemeViaUi(page, theme);
      await prepare();
      await snap(page, `${name}-${theme}-${width}`);
      found.push(...(await axe(page, `${name} ${theme} ${width}`)));
      await page.keyboard.press('Escape');
    }
  }
  await page.setViewportSize(DESKTOP);
  await setThemeViaUi(page, 'light');
  expect(found).toEqual([]);
}

/** A new member's page; `blockWorker` for tests that make requests fail with page.route. */
async function memberPage(browser: Browser, prefix: string, { blockWorker = false } = {}) {
  const context = await browser.newContext({
    ...CONTEXT,
    ...(blockWorker ? { serviceWorkers: 'block' as const } : {}),
  });
  const page = await context.newPage();
  await registerViaUi(page, uniqueUser(prefix));
  return { context, page };
}

async function waitForWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

const header = (page: Page) => page.getByRole('banner');
const composer = (page: Page) => page.getByPlaceholder("What's on your mind?");

test('offline, a reload keeps the member and refuses a post with "You\'re offline"; back online the session is asked at once', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { context, page } = await memberPage(browser, 'offline46');
  await waitForWorker(page);

  await context.setOffline(true);
  await page.reload();
  // The banner (a toast's announcement is a status too).
  const banner = page.getByRole('status').filter({ hasText: 'when your connection is back' });
  await expect(banner).toBeVisible();
  await expect(header(page).getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(header(page).getByRole('link', { name: 'Login' })).toHaveCount(0);

  await composer(page).fill('Written on the train');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toasts(page).getByText("You're offline")).toBeVisible();
  await expect(toasts(page).getByText('Failed to create post')).toBeVisible();
  await expect(toasts(page).getByText('Please login to post')).toHaveCount(0);
  await expect(composer(page)).toHaveValue('Written on the train');
  await everyWay(page, 'shell46-offline', async () => {
    await expect(banner).toBeVisible();
  });

  // The connection returns: the session is asked again without a reload or a poll.
  const asked = page.waitForRequest((request) => request.url().includes('auth.session'));
  await context.setOffline(false);
  await asked;
  await expect(banner).toHaveCount(0);
  await expect(header(page).getByRole('button', { name: 'Account menu' })).toBeVisible();
  await context.close();
});

test('keyboard focus stays clear of the sticky header; the feed panel takes no tab stop; a mouse click draws no ring', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await memberPage(browser, 'focus46');
  await expect(postCard(page, '').first()).toBeVisible();

  // A mouse click on a feed tab: focus, but no keyboard ring.
  await page.getByRole('tab', { name: 'Following' }).click();
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    return { visible: el.matches(':focus-visible'), outline: getComputedStyle(el).outlineStyle };
  });
  expect(ring).toEqual({ visible: false, outline: 'none' });
  await page.getByRole('tab', { name: 'Everyone' }).click();
  await expect(postCard(page, '').first()).toBeVisible();

  const headerBottom = (await box(header(page))).height;
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const rect = el.getBoundingClientRect();
      const bar = !!el.closest('header, nav[aria-label="Tab bar"]');
      return { top: rect.top, bottom: rect.bottom, role: el.getAttribute('role'), tag: el.tagName, bar };
    });

  // Into the feed and back out: every stop is below the header, and none is the feed's panel.
  await composer(page).focus();
  const seen: string[] = [];
  for (const key of [...Array(30).fill('Tab'), ...Array(30).fill('Shift+Tab')] as string[]) {
    await page.keyboard.press(key);
    const at = await focused();
    seen.push(`${key} ${at.tag}[${at.role}] ${Math.round(at.top)}`);
    expect(at.role, seen.join('\n')).not.toBe('tabpanel');
    if (at.tag !== 'BODY' && !at.bar) expect(at.top, seen.join('\n')).toBeGreaterThanOrEqual(headerBottom);
  }
  await context.close();
});

test('toasts sit where no control lives: above the tab bar on a phone, away from Cubey on desktop', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  // A phone: a visitor's Like explains in a toast, at the bottom above the tab bar.
  const visitor = await browser.newContext({ ...CONTEXT, viewport: MOBILE });
  const phone = await visitor.newPage();
  await phone.goto('/');
  await postCard(phone, '')
    .first()
    .getByRole('button', { name: /^Like,/ })
    .click();
  const note = toasts(phone).locator('li').filter({ hasText: 'Please login to like posts' });
  await expect(note).toBeVisible();
  const tabBar = await box(phone.getByRole('navigation', { name: 'Tab bar' }));
  const placed = await box(note);
  expect(overlaps(placed, await box(header(phone)))).toBe(false);
  expect(placed.y + placed.height).toBeLessThanOrEqual(tabBar.y);
  expect(placed.y).toBeGreaterThan(MOBILE.height / 2);
  await visitor.close();

  // Desktop: Cubey's Send and Regenerate at the bottom of the window stay free.
  const { context, page } = await memberPage(browser, 'toast46', { blockWorker: true });
  await page.goto('/cubes');
  await page.getByRole('button', { name: 'Chat with Cubey' }).click();
  const question = page.getByRole('textbox', { name: 'Message Cubey' });
  await question.fill('What is trending?');
  await question.press('Enter');
  const regenerate = page.getByRole('button', { name: 'Regenerate' });
  await expect(regenerate).toBeVisible({ timeout: 30_000 });
  const send = page.getByRole('button', { name: 'Send' });
  await send.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  // A failure is a toast: Regenerate whose request does not get through.
  await page.route('**/trpc/cubey.regenerate**', (route) => route.abort());
  await regenerate.click();
  const failed = toasts(page).locator('li').filter({ hasText: 'Failed to regenerate the answer' });
  await expect(failed).toBeVisible();
  const toastBox = await box(failed);
  for (const control of [send, regenerate, question, header(page)])
    expect(overlaps(toastBox, await box(control)), String(control)).toBe(false);
  await snap(page, 'shell46-toast-cubey-light-1280');

  // The toast on both widths and themes (a fresh one each time: it closes itself after 5 s).
  await page.route('**/trpc/posts.create**', (route) => route.abort());
  await page.goto('/');
  await everyWay(page, 'shell46-toast', async () => {
    await composer(page).fill('A toast, please');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(toasts(page).getByText('Failed to create post')).toBeVisible();
  });
  await context.close();
});

test('drafts come back after another page, per place, until sent; an unsent post asks before the tab closes', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { context, page } = await memberPage(browser, 'drafts46');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const awayAndBack = async (back: string) => {
    await nav.getByRole('link', { name: 'Search' }).click();
    await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
    await nav.getByRole('link', { name: back }).click();
  };

  await composer(page).fill('Half a post');
  const first = postCard(page, '').first();
  const second = postCard(page, '').nth(1);
  await first.getByRole('button', { name: /^Comments/ }).click();
  await first.getByLabel('Write a comment').fill('Half a comment');
  await awayAndBack('Home');
  await expect(composer(page)).toHaveValue('Half a post');
  await first.getByRole('button', { name: /^Comments/ }).click();
  await expect(first.getByLabel('Write a comment')).toHaveValue('Half a comment');
  await second.getByRole('button', { name: /^Comments/ }).click();
  await expect(second.getByLabel('Write a comment')).toHaveValue('');

  await page.goto('/cubes');
  await page.getByRole('button', { name: 'Chat with Cubey' }).click();
  const question = page.getByRole('textbox', { name: 'Message Cubey' });
  await question.fill('What is trend');
  await awayAndBack('Cubes');
  await page.getByRole('button', { name: 'Chat with Cubey' }).click();
  await expect(question).toHaveValue('What is trend');
  await question.fill('What is trending?');
  await question.press('Enter');
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible({ timeout: 30_000 });
  await expect(question).toHaveValue('');

  // Sent: the post's draft goes; nothing holds the tab any more.
  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(composer(page)).toHaveValue('Half a post');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toasts(page).getByText('Post created successfully!')).toBeVisible();
  await awayAndBack('Home');
  await expect(composer(page)).toHaveValue('');

  // Unsent: closing the tab asks first.
  await composer(page).fill('Do not lose me');
  const dialog = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const asked = await dialog;
  expect(asked.type()).toBe('beforeunload');
  await asked.accept();
  await context.close();
});

test('System is the default theme: applied before the first paint and followed live; Light and Dark stay', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ ...CONTEXT, colorScheme: 'dark' });
  const page = await context.newPage();
  // The <html> class when the body is first parsed: before any paint, before the app's scripts.
  await page.addInitScript(() => {
    const w = window as unknown as { __firstClass?: string };
    new MutationObserver((_, observer) => {
      if (document.body) {
        w.__firstClass = document.documentElement.className;
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => (window as unknown as { __firstClass?: string }).__firstClass)).toContain(
    'dark',
  );
  await expect(page.getByRole('button', { name: 'Theme: System' })).toBeVisible();
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).not.toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/dark/);

  // The menu: Light, Dark, System; a choice is kept over the device's setting.
  await page.getByRole('button', { name: 'Theme: System' }).click();
  await expect(page.getByRole('menuitemradio')).toHaveText(['Light', 'Dark', 'System']);
  await expect(page.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await expect(html).not.toHaveClass(/dark/);
  await page.reload();
  await expect(html).not.toHaveClass(/dark/);
  expect(
    await page.evaluate(() => (window as unknown as { __firstClass?: string }).__firstClass),
  ).not.toContain('dark');
  await setThemeViaUi(page, 'system');
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('cubes-theme'))).toBe('system');

  await everyWay(page, 'shell46-theme-menu', async () => {
    await page.getByRole('button', { name: /^Theme: / }).click();
    await expect(page.getByRole('menu')).toBeVisible();
  });
  await context.close();
});

test("home: a visitor gets the hero; a member starts at the composer, on a phone's first screen", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { context, page } = await memberPage(browser, 'home46');
  await expect(page.getByRole('heading', { name: 'Welcome to Cubes AI' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: /here is what's new/ })).toBeVisible();
  await page.setViewportSize(MOBILE);
  await page.reload();
  const field = await box(composer(page));
  expect(field.y).toBeGreaterThan(0);
  expect(field.y + field.height).toBeLessThanOrEqual(MOBILE.height);
  await page.setViewportSize(DESKTOP);
  await everyWay(page, 'shell46-home-member', async () => {
    await expect(postCard(page, '').first()).toBeVisible();
  });
  await context.close();

  const visitor = await browser.newContext(CONTEXT);
  const guest = await visitor.newPage();
  await guest.goto('/');
  await expect(guest.getByRole('heading', { name: 'Welcome to Cubes AI', level: 1 })).toBeVisible();
  await everyWay(guest, 'shell46-home-visitor', async () => {
    await expect(postCard(guest, '').first()).toBeVisible();
  });
  await visitor.close();
});
