/**
 * The Gallery page end to end, on the demo gallery (the suite's server loads the demo community;
 * the gallery has no upload path of its own). Stats, the type filter and selector, the heart
 * logged out and in, the lightbox; screenshots in both themes at 1280 and 390 px.
 */
import { expect, test } from '@playwright/test';
import { registerViaUi, setThemeViaUi, snap, toasts, uniqueUser } from './helpers';

test.describe('gallery', () => {
  test('stats, filter, type selector, hearts, lightbox', async ({ page }) => {
    await page.goto('/gallery');
    const total = page.getByText('Total Media').locator('..');
    await expect(total.locator('p').nth(1)).not.toHaveText('–');
    const count = Number(await total.locator('p').nth(1).textContent());
    expect(count).toBeGreaterThanOrEqual(40);
    const items = page.getByRole('list', { name: 'Gallery items' }).getByRole('article');
    await expect(items.first()).toBeVisible();

    // Logged out, the heart asks for a login and changes nothing.
    const firstHeart = items.first().getByRole('button', { name: /to favorites$|from favorites$/ });
    const before = await firstHeart.textContent();
    await firstHeart.click();
    await expect(toasts(page).getByText('Please login to favorite items')).toBeVisible();
    await expect(toasts(page).getByText('You need to be logged in to save favorites')).toBeVisible();
    await expect(firstHeart).toHaveText(before!);

    // The type selector starts at All Types and asks the server for one type.
    const select = page.getByRole('combobox', { name: 'Type' });
    await expect(select).toHaveValue('all');
    await select.selectOption('music');
    await expect(items.first()).toContainText('music');
    const types = await items.evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    expect(types.every((t) => t.includes('music'))).toBe(true);
    await select.selectOption('all');

    // The text filter works on the loaded items' type.
    await page.getByRole('searchbox', { name: 'Filter by type' }).fill('nothing-like-this');
    await expect(page.getByText('No items found')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Filter by type' }).fill('');

    // The lightbox: arrows move, Escape closes and the page stays where it was.
    const target = items.nth(4);
    const title = await target.getAttribute('aria-label');
    await target.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await target.getByRole('button', { name: `View ${title}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading')).toHaveText(title!);
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByRole('heading')).not.toHaveText(title!);
    await page.keyboard.press('ArrowLeft');
    await expect(dialog.getByRole('heading')).toHaveText(title!);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(5);

    // Logged in, the heart flips and the count follows, and it persists.
    await registerViaUi(page, uniqueUser('gal'));
    await page.goto('/gallery');
    const heart = items.first().getByRole('button', { name: /to favorites$/ });
    const n = Number(await heart.textContent());
    await heart.click();
    await expect(items.first().getByRole('button', { name: /from favorites$/ })).toHaveText(String(n + 1));
    await page.reload();
    await expect(items.first().getByRole('button', { name: /from favorites$/ })).toHaveText(String(n + 1));

    for (const theme of ['light', 'dark'] as const) {
      await setThemeViaUi(page, theme);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.evaluate(() => window.scrollTo(0, 0));
        await snap(page, `gallery-${theme}-${width}`);
      }
    }
  });
});
