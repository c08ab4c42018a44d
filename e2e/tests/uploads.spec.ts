/**
 * Image uploads through the real server (docs/web.md, "Uploads"): the composer's Media dialog (Uppy),
 * the post's image in the feed and full size, and a profile picture set from Settings.
 */
import { expect, type Locator, test } from '@playwright/test';
import {
  expectUploaded,
  pngFile,
  setThemeViaUi,
  signUp,
  snap,
  toasts,
  uniqueUser,
  uploadDialog,
  uploadInDialog,
} from './helpers.js';

// Reduced motion: screenshots never catch a colour transition or the modal's animation half-way.
test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });

async function naturalWidth(selector: Locator): Promise<number> {
  await expect
    .poll(() => selector.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeTruthy();
  return selector.evaluate((img: HTMLImageElement) => img.naturalWidth);
}

test.describe('uploads', () => {
  test('a member attaches an uploaded image to a post and sets a profile picture', async ({ page }) => {
    test.setTimeout(90_000);
    const user = uniqueUser('upl');
    await signUp(page, user);
    await setThemeViaUi(page, 'light');

    // Media opens Uppy's dashboard; the picked image is previewed there before anything is sent.
    await page.getByRole('button', { name: 'Media' }).click();
    const dialog = uploadDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('up to 5 MB');
    await snap(page, 'upload-dialog-light-empty');
    await dialog
      .locator('input.uppy-Dashboard-input[type=file]:not([webkitdirectory])')
      .first()
      .setInputFiles(pngFile('sunset.png'));
    await expect(dialog.getByRole('button', { name: /^Upload 1 file/ })).toBeVisible();
    await expect(dialog.locator('img.uppy-Dashboard-Item-previewImg')).toBeVisible();
    await snap(page, 'upload-dialog-light');
    await dialog.getByRole('button', { name: /^Upload 1 file/ }).click();
    await expectUploaded(page);
    await expect(dialog).toBeHidden();

    // The composer previews the thumbnail; posting sends the object path.
    const preview = page.getByRole('img', { name: 'Attachment 1' });
    await expect(preview).toHaveAttribute('src', /^\/objects\/uploads\/[0-9a-f-]+\/thumb$/);
    expect(await naturalWidth(preview)).toBe(320);
    await expect(page.getByRole('button', { name: 'Remove image 1' })).toBeVisible();
    const text = `Sunset over the cubes ${user.username}`;
    await page.getByPlaceholder("What's on your mind?").fill(text);
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(toasts(page).getByText('Post created successfully!')).toBeVisible();
    await expect(preview).toBeHidden();

    const card = page.getByRole('article').filter({ hasText: text });
    const image = card.getByRole('img', { name: text });
    await expect(image).toHaveAttribute('src', /^\/objects\/uploads\/[0-9a-f-]+\/thumb$/);
    expect(await naturalWidth(image)).toBe(320);
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'upload-post-in-feed');

    // Full size in a dialog.
    await card.getByRole('button', { name: 'View full image' }).click();
    const viewer = page.getByRole('dialog', { name: `Image by ${user.displayName}` });
    const full = viewer.getByRole('img', { name: text });
    await expect(full).toHaveAttribute('src', /^\/objects\/uploads\/[0-9a-f-]+$/);
    expect(await naturalWidth(full)).toBe(320);
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();

    // The same feed after a reload: the image is public and stays.
    await page.reload();
    await expect(
      page.getByRole('article').filter({ hasText: text }).getByRole('img', { name: text }),
    ).toHaveAttribute('src', /\/objects\//);

    // Dark theme: the dialog follows the app's theme; an upload can be removed before posting.
    await setThemeViaUi(page, 'dark');
    await page.getByRole('button', { name: 'Media' }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('.uppy-Dashboard')).toHaveAttribute('data-uppy-theme', 'dark');
    await dialog
      .locator('input.uppy-Dashboard-input[type=file]:not([webkitdirectory])')
      .first()
      .setInputFiles(pngFile('night.png', 200, 300));
    await expect(dialog.getByRole('button', { name: /^Upload 1 file/ })).toBeVisible();
    await expect(dialog.locator('img.uppy-Dashboard-Item-previewImg')).toBeVisible();
    await snap(page, 'upload-dialog-dark');
    await dialog.getByRole('button', { name: /^Upload 1 file/ }).click();
    await expectUploaded(page);
    await expect(preview).toBeVisible();
    await page.getByRole('button', { name: 'Remove image 1' }).click();
    await expect(preview).toBeHidden();
    await setThemeViaUi(page, 'light');

    // Settings: upload a profile picture; the header avatar changes at once and after a reload.
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Change profile picture' }).click();
    await uploadInDialog(page, pngFile('me.png', 256, 256));
    await expect(page.getByLabel('Profile picture URL')).toHaveValue(/^\/objects\/uploads\/[0-9a-f-]+$/);
    const avatar = page.getByRole('button', { name: 'Account menu' }).getByRole('img');
    await expect(avatar).toHaveAttribute('src', /\/objects\//);
    expect(await naturalWidth(avatar)).toBe(256);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Account menu' }).getByRole('img')).toHaveAttribute(
      'src',
      /\/objects\//,
    );
    await page.goto(`/profile/${user.username}`);
    await expect(page.locator(`img[src*="/objects/"]`).first()).toBeVisible();
  });
});
