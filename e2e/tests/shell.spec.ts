import { expect, test } from '@playwright/test';
import {
  loginViaUi,
  logoutViaUi,
  registerViaUi,
  setThemeViaUi,
  snap,
  toasts,
  uniqueUser,
} from './helpers.js';

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
    await registerViaUi(page, uniqueUser('redir'));
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
    const preloads = async (path: string) =>
      [
        ...(await (await request.get(path)).text()).matchAll(
          /<link rel="modulepreload" crossorigin href="([^"]+)">/g,
        ),
      ].map((m) => m[1]!);
    const first = await preloads('/');
    const searchOnly = (await preloads('/search')).filter((file) => !first.includes(file));
    const chunk = searchOnly.find((file) => /^\/assets\/search-[\w-]+\.js$/.test(file));
    expect(chunk, searchOnly.join(' ')).toBeDefined();
    for (const file of searchOnly)
      expect((await request.get(file)).headers()['content-type']).toMatch(/javascript/);

    // Asked for once, by the HTML's parser ("parser"), not by the app's import() once it has run
    // ("script"). Chromium's resource timing calls both "other": the DevTools protocol tells them apart.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const initiators: string[] = [];
    cdp.on('Network.requestWillBeSent', (event) => {
      if (new URL(event.request.url).pathname === chunk) initiators.push(event.initiator.type);
    });
    await page.goto('/search');
    await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
    expect(initiators).toEqual(['parser']);
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
