/**
 * Settings → Sessions in two real browsers: the phone's session shows up on the laptop, is ended
 * from there, and the phone is logged out (its live connection closes at once); then "Log out
 * everywhere else" ends another.
 */
import { expect, test } from '@playwright/test';
import { loginViaUi, registerViaUi, setThemeViaUi, snap, toasts, uniqueUser } from './helpers.js';

// Reduced motion: screenshots never catch a colour transition half-way (e.g. after a theme switch).
test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

test('sessions: list, end one, log out everywhere else', async ({ page, browser }) => {
  const user = uniqueUser('sess');
  await registerViaUi(page, user);

  const phoneContext = await browser.newContext({
    userAgent: IPHONE_UA,
    viewport: { width: 390, height: 844 },
  });
  const phone = await phoneContext.newPage();
  await loginViaUi(phone, user);
  await expect(phone.getByRole('button', { name: 'Account menu' })).toBeVisible();

  await page.goto('/settings');
  const card = page.getByRole('region', { name: 'Sessions' });
  const list = card.getByRole('list', { name: 'Active sessions' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText('This device');
  await expect(list.getByRole('listitem').nth(1)).toContainText('Safari on iPhone');
  await setThemeViaUi(page, 'light');
  await snap(page, 'settings-sessions-light');
  await setThemeViaUi(page, 'dark');
  await snap(page, 'settings-sessions-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'settings-sessions-mobile-dark');
  await setThemeViaUi(page, 'light');
  await snap(page, 'settings-sessions-mobile-light');
  await page.setViewportSize({ width: 1280, height: 800 });

  await card.getByRole('button', { name: 'End session on Safari on iPhone' }).click();
  await expect(toasts(page).getByText('Session ended', { exact: true })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(card.getByRole('button', { name: 'Log out everywhere else' })).toBeDisabled();
  // The phone is logged out: its next look at the session says so.
  await phone.reload();
  await expect(
    phone.getByRole('link', { name: 'Login' }).or(phone.getByRole('button', { name: 'Login' })),
  ).toBeVisible();

  // Log in on the phone again, then end it with "Log out everywhere else".
  await loginViaUi(phone, user);
  await expect(phone.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await page.reload();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await card.getByRole('button', { name: 'Log out everywhere else' }).click();
  await expect(toasts(page).getByText('1 other session ended.', { exact: true })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await phone.reload();
  await expect(
    phone.getByRole('link', { name: 'Login' }).or(phone.getByRole('button', { name: 'Login' })),
  ).toBeVisible();
  // This browser is still logged in.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await phoneContext.close();
});
