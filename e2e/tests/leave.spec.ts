/**
 * Leaving with your data: Settings → "Download my data" builds a zip in the background and
 * downloads it; "Delete my account" needs the password, logs out, and the messages the member sent
 * stay with their receiver as from "Deleted user". Screenshots at 1280 and 390 px in both themes.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  CONTEXT,
  createPostViaUi,
  loginViaUi,
  newPage,
  PHOTO_THEMES,
  setThemeViaUi,
  signUp,
  snap,
  toasts,
  uniqueUser,
} from './helpers.js';

test.use(CONTEXT);

/** The files of a zip, by name (central directory → local headers; stored or deflated). */
function unzip(archive: Buffer): Map<string, Buffer> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const files = new Map<string, Buffer>();
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < archive.readUInt16LE(end + 10); i += 1) {
    const method = archive.readUInt16LE(at + 10);
    const size = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const local = archive.readUInt32LE(at + 42);
    const data = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const raw = archive.subarray(data, data + size);
    files.set(name, method === 8 ? inflateRawSync(raw) : raw);
    at += 46 + nameLength + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
  }
  return files;
}

async function shots(page: Page, name: string): Promise<void> {
  // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const theme of PHOTO_THEMES) {
    await setThemeViaUi(page, theme);
    await page.setViewportSize({ width: 1280, height: 800 });
    await snap(page, `${name}-1280-${theme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, `${name}-390-${theme}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await setThemeViaUi(page, 'light');
}

/**
 * The same with a modal open, of the viewport (the dialog is fixed to it): the theme toggle behind
 * the modal is inert, so the theme class is set directly.
 */
async function modalShots(page: Page, name: string): Promise<void> {
  for (const theme of PHOTO_THEMES) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await page.setViewportSize({ width: 1280, height: 800 });
    await snap(page, `${name}-1280-${theme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, `${name}-390-${theme}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

async function newMember(browser: Browser, prefix: string) {
  const page = await newPage(browser);
  const user = uniqueUser(prefix);
  await signUp(page, user);
  return { page, user };
}

test.describe('leave with your data', () => {
  // Two members, a download and eight screenshots each: more than the default 30 s on a busy machine.
  test.describe.configure({ timeout: 120_000 });

  test('Download my data: progress, then a zip with the member’s own data', async ({ page }) => {
    const user = uniqueUser('exp');
    await signUp(page, user);
    await createPostViaUi(page, 'A cube worth keeping 🧊');
    await page.goto('/settings');
    const card = page.getByRole('region', { name: 'Download my data' });
    await card.getByRole('button', { name: 'Download my data' }).click();
    const link = card.getByRole('link', { name: 'Download zip' });
    await expect(link).toBeVisible({ timeout: 15_000 });
    await expect(card.getByText(/Your data is ready \(\d+(\.\d)? (B|KB|MB)\)/)).toBeVisible();
    await shots(page, 'settings-data-ready');

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^cubes-data-${user.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`),
    );
    const files = unzip(readFileSync((await download.path())!));
    expect(JSON.parse(files.get('profile.json')!.toString())).toMatchObject({
      username: user.username,
      email: user.email,
    });
    expect(JSON.parse(files.get('posts.json')!.toString())).toEqual([
      expect.objectContaining({ content: 'A cube worth keeping 🧊' }),
    ]);
    for (const name of [
      'comments.json',
      'likes.json',
      'follows.json',
      'messages.json',
      'cubey-chats.json',
      'uploads.json',
    ]) {
      expect(files.has(name), name).toBe(true);
    }

    // Another member cannot fetch it.
    const other = await newMember(page.context().browser()!, 'peek');
    const res = await other.page.request.get(await link.getAttribute('href').then((h) => h!));
    expect(res.status()).toBe(404);
    await other.page.context().close();
  });

  test('Delete my account: password, logged out, messages stay from "Deleted user"', async ({
    page,
    browser,
  }) => {
    const friend = await newMember(browser, 'stay');
    const leaver = uniqueUser('bye');
    await signUp(page, leaver);
    const { user: friendUser } = await (
      await page.request.get(`/api/users/by-username/${friend.user.username}`)
    ).json();
    const sent = await page.request.post('/api/messages', {
      data: { receiverId: friendUser.id, content: 'Goodbye, and thanks for all the cubes' },
    });
    expect(sent.status()).toBe(201);

    await page.goto('/settings');
    const card = page.getByRole('region', { name: 'Delete my account' });
    await card.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
    await expect(dialog.getByText('Password is incorrect')).toBeVisible();
    await dialog.getByLabel('Password').fill(leaver.password);
    await modalShots(page, 'settings-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click();

    await expect(toasts(page).getByText('Your account was deleted')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    // Logged out: the header offers Login (as does the visitor's welcome above the feed).
    const banner = page.getByRole('banner');
    await expect(
      banner.getByRole('link', { name: 'Login' }).or(banner.getByRole('button', { name: 'Login' })),
    ).toBeVisible();

    await loginViaUi(page, leaver);
    await expect(toasts(page).getByText('Login failed')).toBeVisible();

    // The friend still has the message, from "Deleted user", and cannot answer.
    await friend.page.goto('/chat');
    await expect(friend.page.getByText('Goodbye, and thanks for all the cubes').first()).toBeVisible();
    await expect(friend.page.getByRole('heading', { name: 'Deleted user' })).toBeVisible();
    await expect(friend.page.getByText(/@~/)).toHaveCount(0);
    await expect(friend.page.getByText('Deleted user does not accept messages from you.')).toBeVisible();
    await shots(friend.page, 'chat-deleted-user');
    await friend.page.context().close();
  });
});
