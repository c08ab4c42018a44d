/**
 * Posts with up to four described images, through the real server: three uploads through the
 * same single-file dialog opened again, descriptions and the reminder, the card's grid (its box
 * does not move while the images load), the ALT button, the lightbox's arrow keys, the profile's
 * Media tab, and the same after a reload; the author describing an image afterwards in the Edit
 * dialog. Screens at 1280 and 390 px in both themes.
 */
import { expect, type Page, test } from '@playwright/test';
import { pngFile, signUp, snapAll, toasts, uniqueUser, uploadDialog } from './helpers.js';

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });

/** Opens Media, picks `file`, uploads it and waits for the dialog to close. */
async function attach(page: Page, file: ReturnType<typeof pngFile>): Promise<void> {
  await page.getByRole('button', { name: /^Media/ }).click();
  const dialog = uploadDialog(page);
  await expect(dialog).toBeVisible();
  await dialog
    .locator('input.uppy-Dashboard-input[type=file]:not([webkitdirectory])')
    .first()
    .setInputFiles(file);
  await dialog.getByRole('button', { name: /^Upload 1 file/ }).click();
  await expect(dialog).toBeHidden();
}

test.describe('posts with images', () => {
  test('compose three described images, see the grid, the ALT text and step through the lightbox', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    const user = uniqueUser('img');
    await signUp(page, user);

    await attach(page, pngFile('wide.png', 480, 240));
    await expect(page.getByRole('img', { name: 'Attachment 1' })).toBeVisible();
    await attach(page, pngFile('tall.png', 200, 320));
    await attach(page, pngFile('square.png', 300, 300));
    await expect(page.getByRole('list', { name: 'Attached images' }).getByRole('listitem')).toHaveCount(3);
    await expect(page.getByRole('button', { name: /^Media/ })).toContainText('3/4');

    // Descriptions for the first and third; the reminder names the second and does not block.
    await page
      .getByRole('textbox', { name: 'Description of image 1' })
      .fill('A wide gradient band, blue to pink');
    await page.getByRole('textbox', { name: 'Description of image 3' }).fill('A square gradient tile 🧊');
    await expect(page.getByTestId('alt-reminder')).toHaveText(/^Image 2 has no description/);
    const text = `Three cubes by ${user.username}`;
    await page.getByPlaceholder("What's on your mind?").fill(text);
    await snapAll(page, 'images-composer');

    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(toasts(page).getByText('Post created successfully!')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Attached images' })).toBeHidden();

    const card = page.getByRole('article').filter({ hasText: text });
    const grid = card.getByRole('list', { name: '3 images' });
    await expect(grid.getByRole('img')).toHaveCount(3);
    // The box is 16:10 before and after the thumbnails load: nothing below it moves.
    const box = await grid.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.width / box!.height).toBeCloseTo(1.6, 1);
    await expect
      .poll(() =>
        grid
          .getByRole('img')
          .evaluateAll((imgs) =>
            imgs.every(
              (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
            ),
          ),
      )
      .toBe(true);
    expect(await grid.boundingBox()).toEqual(box);
    await expect(grid.getByRole('img', { name: 'A wide gradient band, blue to pink' })).toHaveAttribute(
      'src',
      /^\/objects\/uploads\/[0-9a-f-]+\/thumb$/,
    );
    await expect(grid.getByRole('img', { name: text })).toBeVisible(); // no description: the post's words

    // ALT buttons on the described images only; one shows its description.
    await expect(card.getByRole('button', { name: /^ALT/ })).toHaveCount(2);
    const showCard = async () => {
      await card.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollTo(0, 0));
    };
    await snapAll(page, 'images-card', showCard);
    await card.getByRole('button', { name: 'ALT, description of image 1' }).click();
    const popover = page.getByRole('dialog', { name: 'Description of image 1' });
    await expect(popover).toHaveText('A wide gradient band, blue to pink');
    await page.keyboard.press('Escape');
    await expect(popover).toBeHidden();
    await snapAll(
      page,
      'images-alt',
      async () => {
        await card.scrollIntoViewIfNeeded();
        await card.getByRole('button', { name: 'ALT, description of image 3' }).click();
        await expect(page.getByRole('dialog', { name: 'Description of image 3' })).toBeVisible();
      },
      false,
    );

    // The lightbox: arrow keys step (and wrap), each image with its description.
    await card.getByRole('button', { name: 'View image 1 of 3' }).click();
    const viewer = (n: number) =>
      page.getByRole('dialog', { name: `Image ${n} of 3 by ${user.displayName}` });
    await expect(viewer(1)).toBeVisible();
    // (The click scrolled the thumbnail into view; from here on the page must stay put.)
    const scrolled = await page.evaluate(() => window.scrollY);
    await expect(viewer(1).getByTestId('lightbox-alt')).toHaveText('A wide gradient band, blue to pink');
    await expect(viewer(1).getByRole('img')).toHaveAttribute('src', /^\/objects\/uploads\/[0-9a-f-]+$/);
    await page.keyboard.press('ArrowRight');
    await expect(viewer(2)).toBeVisible();
    await expect(viewer(2).getByText('No description')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(viewer(3).getByTestId('lightbox-alt')).toHaveText('A square gradient tile 🧊');
    await page.keyboard.press('ArrowRight');
    await expect(viewer(1)).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(viewer(3)).toBeVisible();
    await page.getByRole('button', { name: 'Previous image' }).click();
    await expect(viewer(2)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(viewer(2)).toBeHidden();
    // Focus goes back to the image that opened it, and the page did not move.
    await expect(card.getByRole('button', { name: 'View image 1 of 3' })).toBeFocused();
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    await snapAll(
      page,
      'images-lightbox',
      async () => {
        await card.getByRole('button', { name: 'View image 3 of 3' }).click();
        await expect(viewer(3)).toBeVisible();
        await expect(viewer(3).getByRole('img')).toHaveJSProperty('complete', true);
      },
      false,
    );

    // After a reload: the same images, order and descriptions; the Media tab shows all three.
    await page.reload();
    const again = page.getByRole('article').filter({ hasText: text }).getByRole('list', { name: '3 images' });
    await expect(again.getByRole('img')).toHaveCount(3);
    await expect(again.getByRole('img').first()).toHaveAccessibleName('A wide gradient band, blue to pink');
    await expect(again.getByRole('img').nth(2)).toHaveAccessibleName('A square gradient tile 🧊');

    // The author describes the second image afterwards, in the Edit dialog: the post is not marked
    // edited, and the new description is there after a reload.
    const mine = page.getByRole('article').filter({ hasText: text });
    const openEdit = async () => {
      await mine.getByRole('button', { name: 'Post actions' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit post' })).toBeVisible();
    };
    await snapAll(page, 'images-edit', openEdit);
    await openEdit();
    const edit = page.getByRole('dialog', { name: 'Edit post' });
    await expect(edit.getByTestId('alt-reminder')).toHaveText(/^Image 2 has no description/);
    await edit
      .getByRole('textbox', { name: 'Description of image 2' })
      .fill('A tall gradient, taller than wide');
    await expect(edit.getByTestId('alt-reminder')).toHaveText('Every image has a description.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(toasts(page).getByText('Post updated')).toBeVisible();
    await expect(mine.getByRole('button', { name: /^ALT/ })).toHaveCount(3);
    await expect(mine.getByRole('button', { name: /^Edited/ })).toHaveCount(0);
    await page.reload();
    await expect(
      page.getByRole('article').filter({ hasText: text }).getByRole('img').nth(1),
    ).toHaveAccessibleName('A tall gradient, taller than wide');

    await page.goto(`/profile/${user.username}`);
    await page.getByRole('tab', { name: 'Media' }).click();
    const media = page.getByRole('list', { name: 'Media' });
    await expect(media.getByRole('img')).toHaveCount(3);
    await expect(media.getByRole('img', { name: 'A square gradient tile 🧊' })).toBeVisible();
  });
});
