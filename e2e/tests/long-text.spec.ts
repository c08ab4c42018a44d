/**
 * Long words and long links wrap instead of widening the page: a 2,000-character post without a
 * space, a long-word comment, a member with the longest display name and bio the forms allow and
 * long links, checked on the home feed, the comment thread, the profile page, the notifications
 * list and the account menu, at 1280 and 390 px, in both themes.
 */
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { CONTEXT, createPostViaUi, postCard, setThemeViaUi, signUp, snap, uniqueUser } from './helpers.js';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

// A real word, repeated into one with no place to break.
const WORD = 'Donaudampfschifffahrtsgesellschaftskapitaen';
function longWord(length: number): string {
  return WORD.repeat(Math.ceil(length / WORD.length)).slice(0, length);
}

const SPACELESS_POST = longWord(2000);
const LINK = `https://example.com/${longWord(600)}?cube=${longWord(300)}`;
const LINK_POST = `A long link: ${LINK}`;
const COMMENT = longWord(1500);
const BIO_LINK = `https://example.com/${longWord(150)}`;
const BIO = `${longWord(300)} ${BIO_LINK}`;

/** A user whose username (30) and display name (50) are as long as registration allows, unbroken. */
function wideUser(prefix: string) {
  const user = uniqueUser(prefix);
  const username = user.username.padEnd(30, 'x').slice(0, 30);
  return { ...user, username, email: `${username}@example.com`, displayName: longWord(50) };
}

async function newPage(browser: Browser): Promise<Page> {
  // Reduced motion: screenshots never catch a colour transition half-way (e.g. after a theme switch).
  const context = await browser.newContext({ ...CONTEXT, viewport: WIDTHS[0] });
  return context.newPage();
}

/** The document is no wider than the window: nothing forces a horizontal scroll bar. */
async function expectNoPageOverflow(page: Page, where: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(
    scrollWidth,
    `${where}: document is ${scrollWidth}px wide in a ${innerWidth}px window`,
  ).toBeLessThanOrEqual(innerWidth);
}

/**
 * A floating panel (popover, menu) is positioned `fixed`, so it never widens the document: check
 * that it lies inside the window and that nothing in it spills sideways.
 */
async function expectPanelFits(panel: Locator, where: string): Promise<void> {
  const fit = await panel.evaluate((element) => ({
    left: element.getBoundingClientRect().left,
    right: element.getBoundingClientRect().right,
    innerWidth: window.innerWidth,
    overflow: [element, ...Array.from(element.querySelectorAll('*'))].some(
      (child) => child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== 'hidden',
    ),
  }));
  expect(fit.left, `${where}: left edge`).toBeGreaterThanOrEqual(0);
  expect(fit.right, `${where}: right edge`).toBeLessThanOrEqual(fit.innerWidth);
  expect(fit.overflow, `${where}: something inside is wider than its box`).toBe(false);
}

test('long words and links wrap on every screen, at 1280 and 390 px, light and dark', async ({ browser }) => {
  test.setTimeout(180_000);
  const author = wideUser('wide');
  const commenter = wideUser('talk');
  const page = await newPage(browser);
  const other = await newPage(browser);

  // The author: longest name, a bio of one long word and a long link, and two long posts.
  await signUp(page, author);
  const settings = await page.request.put('/api/settings', { data: { bio: BIO } });
  expect(settings.status()).toBe(200);
  await createPostViaUi(page, LINK_POST);
  await createPostViaUi(page, SPACELESS_POST);

  // Someone else likes and answers the spaceless post with a long word: two notifications.
  await signUp(other, commenter);
  const theirCard = postCard(other, SPACELESS_POST);
  await theirCard.getByRole('button', { name: /^Like,/ }).click();
  await expect(theirCard.getByRole('button', { name: /^Unlike,/ })).toBeVisible();
  await theirCard.getByRole('button', { name: 'Comments' }).click();
  await theirCard.getByLabel('Write a comment').fill(COMMENT);
  await theirCard.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(theirCard.getByRole('region', { name: 'Comments' }).getByRole('listitem')).toHaveCount(1);
  await other.context().close();

  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    for (const theme of THEMES) {
      const at = `${theme} ${viewport.width}`;
      const name = (screen: string) => `long-text-${screen}-${theme}-${viewport.width}`;

      await page.goto('/');
      await setThemeViaUi(page, theme);
      const card = postCard(page, SPACELESS_POST);
      await expect(card).toBeVisible();
      await expect(postCard(page, LINK_POST).getByRole('link', { name: LINK })).toBeVisible();
      await expectNoPageOverflow(page, `home feed, ${at}`);
      await snap(page, name('home'));

      await card.getByRole('button', { name: 'Comments' }).click();
      const thread = card.getByRole('region', { name: 'Comments' });
      await expect(thread.getByRole('listitem')).toContainText(COMMENT);
      await expect(thread.getByRole('link', { name: commenter.displayName })).toBeVisible();
      await expectNoPageOverflow(page, `comment thread, ${at}`);
      await snap(page, name('comments'));

      // The panels open under the header, so shoot them from the top of the page.
      await page.evaluate(() => window.scrollTo(0, 0));
      if (viewport.width >= 768) {
        await page.getByRole('button', { name: 'Notifications', exact: true }).click();
        const list = page.getByRole('dialog', { name: 'Notifications list' });
        await expect(list.getByRole('listitem')).toHaveCount(2);
        await expect(list.getByRole('listitem').first()).toContainText(commenter.username);
        await expectNoPageOverflow(page, `notifications, ${at}`);
        await expectPanelFits(list, `notifications, ${at}`);
        await snap(page, name('notifications'));
        await page.keyboard.press('Escape');
        await expect(list).toBeHidden();
      } else {
        // On a phone the bell opens the notifications page (issue #46).
        await page.getByRole('link', { name: 'Notifications', exact: true }).click();
        const list = page.getByRole('list', { name: 'Notifications' });
        await expect(list.getByRole('listitem')).toHaveCount(2);
        await expect(list.getByRole('listitem').first()).toContainText(commenter.username);
        await expectNoPageOverflow(page, `notifications, ${at}`);
        await snap(page, name('notifications'));
        await page.goBack();
      }

      await page.getByRole('button', { name: 'Account menu' }).click();
      const menu = page.getByRole('menu');
      await expect(menu).toContainText(`@${author.username}`);
      await expectPanelFits(menu, `account menu, ${at}`);
      await snap(page, name('account-menu'));
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();

      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: author.displayName })).toBeVisible();
      await expect(page.getByRole('link', { name: BIO_LINK, exact: true })).toBeVisible();
      await expect(postCard(page, SPACELESS_POST)).toBeVisible();
      await expectNoPageOverflow(page, `profile, ${at}`);
      await snap(page, name('profile'));
    }
  }
  await page.context().close();
});
