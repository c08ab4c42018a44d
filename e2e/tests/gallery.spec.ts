/**
 * The Gallery page end to end, on the demo gallery (the suite's server loads the demo community;
 * the gallery has no upload path of its own). Stats, the type filter and selector, the heart
 * logged out and in, the lightbox; screenshots in both themes at 1280 and 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  answerTo,
  CONTEXT,
  PHOTO_THEMES,
  setThemeViaUi,
  shootAndAudit,
  signUp,
  snap,
  toasts,
  uniqueUser,
  widthsFor,
} from './helpers';

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
    const firstHeart = items.first().getByRole('button', { name: / to favorites, | from favorites, / });
    const before = await firstHeart.textContent();
    // Rendered on the server: a click counts once the app has hydrated (the Type choice says so).
    await expect(page.getByRole('combobox', { name: 'Type' })).toBeEnabled();
    await firstHeart.click();
    await expect(toasts(page).getByText('Please login to favorite items')).toBeVisible();
    await expect(toasts(page).getByText('You need to be logged in to save favorites')).toBeVisible();
    await expect(firstHeart).toHaveText(before!);

    // The type selector starts at All Types and asks the server for one type.
    const select = page.getByRole('combobox', { name: 'Type' });
    await expect(select).toHaveValue('all');
    await select.selectOption('music');
    // All's items stay, dimmed and busy, until Music's are drawn.
    await expect(page.getByRole('list', { name: 'Gallery items' })).not.toHaveAttribute('aria-busy', 'true');
    // Each item wears its type's badge ("Music").
    await expect(items.first()).toContainText('Music');
    const types = await items.evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    expect(types.every((t) => t.includes('Music'))).toBe(true);
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
    // The member's gallery comes rendered with their own data: the heart counts once it has hydrated,
    // and the reload waits for the favourite's answer (a reload cuts a call on its way).
    await signUp(page, uniqueUser('gal'));
    await page.goto('/gallery');
    await expect(page.getByRole('combobox', { name: 'Type' })).toBeEnabled();
    const heart = items.first().getByRole('button', { name: / to favorites, / });
    const n = Number(await heart.textContent());
    const saved = answerTo(page, 'gallery.favorite');
    await heart.click();
    await expect(items.first().getByRole('button', { name: / from favorites, / })).toHaveText(String(n + 1));
    await saved;
    await page.reload();
    await expect(items.first().getByRole('button', { name: / from favorites, / })).toHaveText(String(n + 1));

    for (const theme of PHOTO_THEMES) {
      await setThemeViaUi(page, theme);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.evaluate(() => window.scrollTo(0, 0));
        await snap(page, `gallery-${theme}-${width}`);
      }
    }
  });

  test('the lightbox leaves the page where it was: opened at 400 px, closed at 400 px', async ({ page }) => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/gallery');
      const items = page.getByRole('list', { name: 'Gallery items' }).getByRole('article');
      await expect(items.nth(7)).toBeVisible();
      // The server rendered the grid: a click counts once the app has hydrated the page, which the
      // type select (disabled until then) says.
      await expect(page.getByRole('combobox', { name: 'Type' })).toBeEnabled();
      await page.evaluate(() => window.scrollTo(0, 400));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);
      // An item whose image is cut by the top of the window (under the sticky header), the one a
      // plain focus() on closing scrolls back into view; on a phone the grid starts lower, and
      // the first item in view is taken.
      const point = await page.evaluate(() => {
        const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
        const buttons = Array.from(
          document.querySelectorAll<HTMLElement>('[aria-label="Gallery items"] button[aria-label^="View "]'),
        ).map((button) => ({ button, box: button.getBoundingClientRect() }));
        const cut = buttons.find(({ box }) => box.top < header && box.bottom > header + 40);
        const chosen = cut ?? buttons.find(({ box }) => box.top >= header && box.bottom < window.innerHeight);
        if (!chosen) return null;
        const top = Math.max(chosen.box.top, header);
        return {
          x: chosen.box.left + chosen.box.width / 2,
          y: (top + chosen.box.bottom) / 2,
          name: chosen.button.getAttribute('aria-label')!,
          cut: !!cut,
        };
      });
      expect(point, 'an item in view').not.toBeNull();
      if (viewport.width === 1280) expect(point!.cut, 'an item cut by the top of the window').toBe(true);
      // A click where the member sees it (Playwright's own click would scroll the button in first).
      await page.mouse.click(point!.x, point!.y);
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      // The page has not moved, and focus is back on the item that opened it.
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => window.scrollY)).toBe(400);
      await expect(page.getByRole('button', { name: point!.name })).toBeFocused();
    }
  });
});

/** A visitor's gallery: the number on a stat tile, and a way to open the page and wait for its grid. */
function galleryOf(page: Page) {
  const tile = async (label: string) =>
    Number(
      await page
        .locator('p', { hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::p[1]')
        .textContent(),
    );
  const open = async () => {
    await page.goto('/gallery');
    // A bound for a loaded machine: it ends as soon as the grid is there.
    await expect(page.getByRole('list', { name: 'Gallery items' })).toBeVisible({ timeout: 20_000 });
    // The grid comes rendered from the server, before the app has hydrated and can answer a
    // click: the Type choice is enabled once it has (gallery-view.tsx).
    await expect(page.getByRole('combobox', { name: 'Type' })).toBeEnabled({ timeout: 20_000 });
  };
  /** Chooses a type and waits for its items: the previous choice's stay (aria-busy) until then. */
  const choose = async (type: string) => {
    await page.getByRole('combobox', { name: 'Type' }).selectOption(type);
    await expect(page.getByRole('list', { name: 'Gallery items' })).not.toHaveAttribute('aria-busy', 'true');
  };
  return { tile, open, choose };
}

test.describe('the gallery says what each item is', () => {
  test('a Video tile, and a type badge on each item instead of a play control', async ({ browser }) => {
    const context = await browser.newContext(CONTEXT);
    const page = await context.newPage();
    const { tile, open } = galleryOf(page);
    await open();
    expect(await tile('Video')).toBeGreaterThan(0);
    expect(await tile('Total Media')).toBeGreaterThan(24);
    // No play control anywhere: each item says what it is.
    await expect(page.getByRole('button', { name: /play/i })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^View .*, Video$/ }).first()).toBeVisible();
    await context.close();
  });

  // Photographed and checked one theme per test: axe over the whole grid takes seconds.
  for (const theme of ['light', 'dark'] as const) {
    test(`the gallery with its type badges in the ${theme} theme at both widths`, async ({ browser }) => {
      const context = await browser.newContext(CONTEXT);
      const page = await context.newPage();
      const { open } = galleryOf(page);
      await open();
      await shootAndAudit(page, 'gallery-types', {
        prepare: open,
        themes: [theme],
        widths: widthsFor(theme),
      });
      await context.close();
    });
  }

  test('the lightbox counts against the stats: past the first page of all, and of one type', async ({
    browser,
  }) => {
    const context = await browser.newContext(CONTEXT);
    const page = await context.newPage();
    const { tile, open, choose } = galleryOf(page);
    await open();
    const total = await tile('Total Media');
    const videos = await tile('Video');
    // "n of <Total Media>", and stepping on past the first page reaches item 25.
    await page
      .getByRole('button', { name: /^View / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(new RegExp(` · 1 of ${total}$`))).toBeVisible();
    for (let n = 2; n <= 25; n += 1) {
      await page.keyboard.press('ArrowRight');
      await expect(dialog.getByText(new RegExp(` · ${n} of ${total}$`))).toBeVisible();
    }
    await page.keyboard.press('Escape');
    // With the Video type chosen, the count is the Video tile's.
    await choose('video');
    await page
      .getByRole('button', { name: /^View .*, Video$/ })
      .first()
      .click();
    await expect(dialog.getByText(new RegExp(`^Video by .* · 1 of ${videos}$`))).toBeVisible();
    await context.close();
  });

  // One theme per test: each way opens the gallery again.
  for (const theme of ['light', 'dark'] as const) {
    test(`a video's lightbox, its title and count instead of a player, in the ${theme} theme`, async ({
      browser,
    }) => {
      const context = await browser.newContext(CONTEXT);
      const page = await context.newPage();
      const { tile, open, choose } = galleryOf(page);
      await open();
      const videos = await tile('Video');
      const dialog = page.getByRole('dialog');
      const lightbox = async () => {
        await open();
        await choose('video');
        await page
          .getByRole('button', { name: /^View .*, Video$/ })
          .first()
          .click();
        await expect(dialog.getByText(new RegExp(`of ${videos}$`))).toBeVisible();
      };
      await shootAndAudit(page, 'gallery-lightbox-count', {
        prepare: lightbox,
        themes: [theme],
        widths: widthsFor(theme),
        close: async () => {
          await page.keyboard.press('Escape');
          await expect(dialog).toBeHidden();
        },
      });
      await context.close();
    });
  }
});
