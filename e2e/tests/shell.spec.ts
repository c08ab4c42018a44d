/**
 * The shell: accounts, the header and navigation, themes, toasts and the 404 page; for a member,
 * an offline reload that keeps them, focus clear of the sticky header, toasts where no control
 * lives, drafts that survive navigation, the System theme and a home without the visitors' hero
 * (each photographed at 1280 and 390 px in both themes and checked with axe: shootAndAudit).
 */
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import {
  appStarted,
  CONTEXT,
  loginViaUi,
  logoutViaUi,
  MOBILE,
  pairings,
  postCard,
  registerViaUi,
  setThemeViaUi,
  shootAndAudit,
  signUp,
  snap,
  toasts,
  uniqueUser,
  widthsFor,
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

/** A new member's page; `blockWorker` for tests that make requests fail with page.route. */
async function memberPage(browser: Browser, prefix: string, { blockWorker = false } = {}) {
  const context = await browser.newContext({
    ...CONTEXT,
    ...(blockWorker ? { serviceWorkers: 'block' as const } : {}),
  });
  const page = await context.newPage();
  await signUp(page, uniqueUser(prefix));
  return { context, page };
}

async function waitForWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

const header = (page: Page) => page.getByRole('banner');
const composer = (page: Page) => page.getByPlaceholder("What's on your mind?");

test.describe('accounts and the shell', () => {
  test('register lands on home logged in; logout; login again', async ({ page }) => {
    const user = uniqueUser('reg');
    await page.goto('/');
    await snap(page, 'home-logged-out-light');
    await registerViaUi(page, user);
    await expect(toasts(page).getByText('Account created!')).toBeVisible();
    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    await snap(page, 'home-logged-in-menu');
    await page.keyboard.press('Escape');

    await logoutViaUi(page);
    await loginViaUi(page, user);
    await expect(page).toHaveURL(/\/$/);
    await expect(toasts(page).getByText('Welcome back!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();

    // The session survives a reload (cookie + /api/auth/me).
    await page.reload();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  });

  test('a fresh page has the toast area named Notifications, F8 focuses it, Radix Toast still lazy', async ({
    page,
  }) => {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const region = toasts(page);
    await expect(region).toHaveCount(1);
    // The server rendered the page: F8 is heard once the app has hydrated it, which the composer's
    // box (read-only until then) says.
    await expect(page.getByPlaceholder("What's on your mind?")).toBeEditable();
    await page.keyboard.press('F8');
    await expect(region).toBeFocused();
    // The region stands in for Radix's until a toast is raised: no toaster chunk yet.
    expect(asked.filter((path) => /\/assets\/toaster-[\w-]+\.js$/.test(path))).toEqual([]);
    // A toast brings Radix's region in its place; F8 still lands in it.
    await loginViaUi(page, { email: 'nobody@example.com', password: 'wrong-password' });
    await expect(region.getByText('Login failed')).toBeVisible();
    await expect(region).toHaveCount(1);
    expect(asked.some((path) => /\/assets\/toaster-[\w-]+\.js$/.test(path))).toBe(true);
    await page.keyboard.press('F8');
    await expect(region.locator(':focus')).toHaveCount(1);
  });

  test('a failed login shows the toast with the server message', async ({ page }) => {
    await loginViaUi(page, { email: 'nobody@example.com', password: 'wrong-password' });
    const toast = toasts(page);
    await expect(toast.getByText('Login failed')).toBeVisible();
    await expect(toast.getByText('Invalid email or password')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
    await snap(page, 'auth-login-failed-toast');
  });

  test('the register form validates with the shared rules before sending', async ({ page }) => {
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    const form = page.getByRole('tabpanel', { name: 'Register' });
    await form.getByLabel('Password').fill('123');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(form.getByText('Must be at least 6 characters')).toBeVisible();
    await snap(page, 'auth-register-validation');
  });

  test('protected pages send a logged-out visitor to /auth; /login does too', async ({ page }) => {
    for (const path of ['/chat', '/profile', '/login']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
    }
    await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
    await snap(page, 'auth-login');
  });

  test('/auth sends a logged-in user home; protected pages open', async ({ page }) => {
    await signUp(page, uniqueUser('redir'));
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);
    for (const path of ['/chat', '/profile', '/settings']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
  });

  test('the theme persists across reloads', async ({ page }) => {
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).not.toHaveClass(/dark/);
    await setThemeViaUi(page, 'dark');
    expect(await page.evaluate(() => localStorage.getItem('cubes-theme'))).toBe('dark');
    await page.reload();
    await expect(html).toHaveClass(/dark/);
    await snap(page, 'home-logged-out-dark');
    await page.goto('/auth');
    await snap(page, 'auth-login-dark');
    await setThemeViaUi(page, 'light');
  });

  test('unknown paths show the 404 page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await snap(page, 'not-found');
  });

  test("a page's own chunks are named in the HTML sent for its path and come with it", async ({
    page,
    request,
  }) => {
    // A visitor's page names them for public/start-after-paint.js, which asks for them once the
    // page has painted (apps/server/src/pages/render.ts).
    const scripts = async (path: string) => {
      const html = await (await request.get(path)).text();
      const named =
        /<script defer src="\/start-after-paint\.js" data-entry="([^"]+)" data-preload="([^"]*)">/.exec(html);
      expect(named, path).not.toBeNull();
      return { entry: named![1]!, preloads: named![2]!.split(' ') };
    };
    const first = (await scripts('/')).preloads;
    const { entry, preloads } = await scripts('/search');
    const searchOnly = preloads.filter((file) => !first.includes(file));
    const chunk = searchOnly.find((file) => /^\/assets\/search-[\w-]+\.js$/.test(file));
    expect(chunk, searchOnly.join(' ')).toBeDefined();
    for (const file of searchOnly)
      expect((await request.get(file)).headers()['content-type']).toMatch(/javascript/);

    // Asked for once, with the app's first script, not by its import() once that has run: before
    // the first script has even arrived.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const order: string[] = [];
    const entryIds = new Set<string>();
    cdp.on('Network.requestWillBeSent', (event) => {
      const path = new URL(event.request.url).pathname;
      if (path === chunk) order.push('chunk asked for');
      if (path === entry) entryIds.add(event.requestId);
    });
    cdp.on('Network.loadingFinished', (event) => {
      if (entryIds.has(event.requestId)) order.push('first script in');
    });
    await page.goto('/search');
    // Hydrated (the box is read-only until then): the page's chunk has run.
    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeEditable();
    expect(order).toEqual(['chunk asked for', 'first script in']);
  });

  test('the nav links reach every section; mobile gets a tab bar', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const [name, path] of [
      ['Cubes', '/cubes'],
      ['Search', '/search'],
      ['Gallery', '/gallery'],
      ['Home', '/'],
    ] as const) {
      await nav.getByRole('link', { name }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const tabs = page.getByRole('navigation', { name: 'Tab bar' });
    await expect(tabs).toBeVisible();
    await expect(nav).toBeHidden();
    await tabs.getByRole('link', { name: 'Gallery' }).click();
    await expect(page).toHaveURL(/\/gallery$/);
    await snap(page, 'mobile-gallery');
  });
});

test.describe('the shell for a member', () => {
  test('offline, a reload keeps the member and refuses a post with "You\'re offline"; back online the session is asked at once', async ({
    browser,
  }) => {
    const { context, page } = await memberPage(browser, 'offline');
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
    await shootAndAudit(page, 'shell-offline', {
      prepare: async () => {
        await expect(banner).toBeVisible();
      },
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
    const { context, page } = await memberPage(browser, 'focus');
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

  test('a toast on a phone sits at the bottom, above the tab bar, clear of the header', async ({
    browser,
  }) => {
    // A visitor's Like explains in a toast.
    const visitor = await browser.newContext({ ...CONTEXT, viewport: MOBILE });
    const phone = await visitor.newPage();
    await phone.goto('/');
    await appStarted(phone);
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
  });

  test("a toast on desktop leaves Cubey's Send and Regenerate at the bottom of the window free", async ({
    browser,
  }) => {
    const { context, page } = await memberPage(browser, 'toast', { blockWorker: true });
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
    await snap(page, 'shell-toast-cubey-light-1280');
    await context.close();
  });

  // One theme per test here and below: axe over the home feed takes seconds each way.
  for (const theme of ['light', 'dark'] as const) {
    test(`a toast in the ${theme} theme at both widths`, async ({ browser }) => {
      const { context, page } = await memberPage(browser, 'toasts', { blockWorker: true });
      // A fresh one each time (it closes itself after 5 s): a post whose request does not get through.
      await page.route('**/trpc/posts.create**', (route) => route.abort());
      await page.goto('/');
      await shootAndAudit(page, 'shell-toast', {
        prepare: async () => {
          await composer(page).fill('A toast, please');
          await page.getByRole('button', { name: 'Post', exact: true }).click();
          await expect(toasts(page).getByText('Failed to create post')).toBeVisible();
        },
        themes: [theme],
        widths: widthsFor(theme),
      });
      await context.close();
    });
  }

  test('drafts come back after another page, per place, until sent; an unsent post asks before the tab closes', async ({
    browser,
  }) => {
    const { context, page } = await memberPage(browser, 'drafts');
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
    expect(
      await page.evaluate(() => (window as unknown as { __firstClass?: string }).__firstClass),
    ).toContain('dark');
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
    // Hydrated: the menu shows the kept choice (a page the server rendered shows System until then).
    await expect(page.getByRole('button', { name: 'Theme: Light' })).toBeVisible();
    await setThemeViaUi(page, 'system');
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('cubes-theme'))).toBe('system');
    await context.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the theme menu in the ${theme} theme at both widths`, async ({ browser }) => {
      const context = await browser.newContext(CONTEXT);
      const page = await context.newPage();
      await page.goto('/');
      await appStarted(page);
      await shootAndAudit(page, 'shell-theme-menu', {
        prepare: async () => {
          await page.getByRole('button', { name: /^Theme: / }).click();
          await expect(page.getByRole('menu')).toBeVisible();
        },
        themes: [theme],
        widths: widthsFor(theme),
      });
      await context.close();
    });
  }

  test("home: a member starts at the composer, on a phone's first screen, without the visitors' hero", async ({
    browser,
  }) => {
    const { context, page } = await memberPage(browser, 'home');
    await expect(page.getByRole('heading', { name: 'Welcome to Cubes AI' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: /here is what's new/ })).toBeVisible();
    await page.setViewportSize(MOBILE);
    await page.reload();
    const field = await box(composer(page));
    expect(field.y).toBeGreaterThan(0);
    expect(field.y + field.height).toBeLessThanOrEqual(MOBILE.height);
    await context.close();
  });

  // One theme and width per test: axe over the whole home feed takes seconds, most in dark. Each
  // pairing in a local run, each theme and each width once in CI (helpers.ts, `pairings`).
  for (const [theme, width] of pairings(['light', 'dark'], ['1280', '390'])) {
    test(`home: a member's, ${theme} at ${width} px`, async ({ browser }) => {
      const { context, page } = await memberPage(browser, 'home');
      await shootAndAudit(page, 'shell-home-member', {
        prepare: async () => {
          await expect(postCard(page, '').first()).toBeVisible();
        },
        themes: [theme],
        widths: [width],
      });
      await context.close();
    });

    test(`home: a visitor gets the hero above the feed, ${theme} at ${width} px`, async ({ browser }) => {
      const visitor = await browser.newContext(CONTEXT);
      const guest = await visitor.newPage();
      await guest.goto('/');
      await expect(guest.getByRole('heading', { name: 'Welcome to Cubes AI', level: 1 })).toBeVisible();
      await shootAndAudit(guest, 'shell-home-visitor', {
        prepare: async () => {
          await expect(postCard(guest, '').first()).toBeVisible();
        },
        themes: [theme],
        widths: [width],
      });
      await visitor.close();
    });
  }
});
