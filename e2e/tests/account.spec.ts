import { expect, type Page, test } from '@playwright/test';
import {
  loginViaUi,
  logoutViaUi,
  readMail,
  registerViaUi,
  setThemeViaUi,
  snap,
  toasts,
  uniqueUser,
  waitForResetCode,
} from './helpers.js';

// Reduced motion: screenshots never catch a colour transition half-way (e.g. after a theme switch).
test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });

function card(page: Page, name: string) {
  return page.getByRole('region', { name });
}

test.describe('account: settings and password reset', () => {
  test('a logged-out visitor on /settings is asked to log in', async ({ page }) => {
    await page.goto('/settings');
    await expect(page.getByText('Please login to access settings')).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('profile settings show up in the avatar menu and on /profile', async ({ page }) => {
    const user = uniqueUser('prof');
    await registerViaUi(page, user);
    await page.goto('/settings');
    const profile = card(page, 'Profile Settings');
    await expect(profile.getByLabel('Display name')).toHaveValue(user.displayName);

    await profile.getByLabel('Display name').fill('Renamed Cube');
    await profile.getByLabel('Bio').fill('I build things out of cubes.');
    await expect(profile.getByText('28/500')).toBeVisible();
    await profile.getByRole('switch', { name: 'Show my email on my profile' }).click();
    await profile.getByRole('button', { name: 'Save Profile' }).click();
    await expect(toasts(page).getByText('Profile updated successfully!')).toBeVisible();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menu').getByText('Renamed Cube')).toBeVisible();
    await page.keyboard.press('Escape');

    await setThemeViaUi(page, 'light');
    await snap(page, 'settings-light');
    await setThemeViaUi(page, 'dark');
    await snap(page, 'settings-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'settings-mobile-dark');
    await page.setViewportSize({ width: 1280, height: 800 });
    await setThemeViaUi(page, 'light');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'Renamed Cube' })).toBeVisible();
    await expect(page.getByText('I build things out of cubes.')).toBeVisible();
    // The email visibility switch was turned on: the profile shows the address.
    await expect(page.getByRole('link', { name: user.email })).toBeVisible();

    // Saved for real: a reload shows the same values.
    await page.goto('/settings');
    await expect(card(page, 'Profile Settings').getByLabel('Bio')).toHaveValue(
      'I build things out of cubes.',
    );
  });

  test('change password, log out, the old password fails and the new one works', async ({ page }) => {
    const user = uniqueUser('pw');
    await registerViaUi(page, user);
    await page.goto('/settings');
    const section = card(page, 'Change Password');
    const button = section.getByRole('button', { name: 'Change Password' });
    await expect(button).toBeDisabled();

    await section.getByLabel('Current password').fill(user.password);
    await section.getByLabel('New password', { exact: true }).fill('brandnew456');
    await section.getByLabel('Confirm new password').fill('brandnew457');
    await button.click();
    await expect(section.getByText('Passwords do not match')).toBeVisible();

    await section.getByLabel('Confirm new password').fill('brandnew456');
    await button.click();
    await expect(toasts(page).getByText('Password changed successfully!')).toBeVisible();
    await expect(section.getByLabel('Current password')).toHaveValue('');

    await logoutViaUi(page);
    await loginViaUi(page, user);
    await expect(toasts(page).getByText('Login failed')).toBeVisible();
    await loginViaUi(page, { email: user.email, password: 'brandnew456' });
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  });

  test('reset the password with the code from the mail', async ({ page }) => {
    const user = uniqueUser('reset');
    await registerViaUi(page, user);
    await logoutViaUi(page);

    await page.goto('/auth?tab=reset');
    const panel = page.getByRole('tabpanel', { name: 'Reset' });
    await expect(panel.getByRole('button', { name: 'Send reset code' })).toBeVisible();
    await setThemeViaUi(page, 'light');
    await snap(page, 'reset-step1-light');
    await setThemeViaUi(page, 'dark');
    await snap(page, 'reset-step1-dark');

    const before = readMail().length;
    await panel.getByLabel('Email').fill(user.email);
    await panel.getByRole('button', { name: 'Send reset code' }).click();
    await expect(toasts(page).getByText('Reset code sent')).toBeVisible();
    await expect(panel.getByLabel('Code')).toBeVisible();
    const code = await waitForResetCode(user.email, before);
    expect(code).toMatch(/^\d{6}$/);

    await snap(page, 'reset-step2-dark');
    await setThemeViaUi(page, 'light');
    await snap(page, 'reset-step2-light');

    // A wrong code is refused with the server's message.
    const wrong = code === '000000' ? '111111' : '000000';
    await panel.getByLabel('Code').fill(wrong);
    await panel.getByLabel('New password').fill('resetpass789');
    await panel.getByRole('button', { name: 'Reset password' }).click();
    await expect(toasts(page).getByText('Reset failed')).toBeVisible();
    await expect(toasts(page).getByText('Invalid or expired code')).toBeVisible();

    await panel.getByLabel('Code').fill(code);
    await panel.getByRole('button', { name: 'Reset password' }).click();
    await expect(toasts(page).getByText('Password reset successfully')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Send reset code' })).toBeVisible();
    await expect(panel.getByLabel('Email')).toHaveValue('');

    await page.getByRole('tab', { name: 'Login' }).click();
    await loginViaUi(page, user);
    await expect(toasts(page).getByText('Login failed')).toBeVisible();
    await loginViaUi(page, { email: user.email, password: 'resetpass789' });
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  });
});
