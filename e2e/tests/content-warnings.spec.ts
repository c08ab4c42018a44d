/**
 * Content warnings and sensitive media, end to end: a member writes a post behind a warning with
 * an image marked sensitive; another member sees only the warning and Show, opens it by keyboard,
 * sees the image blurred under "Sensitive content" and reveals it; after a reload the post stays
 * open (the same session) and the image is blurred again; a visitor's server-rendered permalink
 * leaves the text out of its markup; with Settings' two switches on, the card shows everything at
 * once. Folded, open and the settings are photographed in both themes at 1280 and 390 px and
 * checked with axe (nothing serious or critical).
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  answerTo,
  appStarted,
  newMember,
  pngFile,
  postCard,
  shootAndAudit,
  toasts,
  uploadDialog,
} from './helpers.js';

/** The card laid out afresh at the window's size, in view (see polls.spec.ts, freshAt). */
async function freshAt(page: Page, card: Locator): Promise<void> {
  await page.reload();
  await expect(card).toBeVisible();
  await card.scrollIntoViewIfNeeded();
}

test.describe('content warnings', () => {
  test('a post behind a warning with a sensitive image: folded, shown, remembered, and the settings', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const author = await newMember(browser, 'cwauthor');
    const reader = await newMember(browser, 'cwreader');
    const warning = `Spoilers for the finale ${author.user.username}`;
    const text = `The cube was inside the other cube all along 🧊 ${author.user.username}`;

    // The composer: text, CW with its field, one image marked sensitive, Post.
    const page = author.page;
    await page.goto('/');
    const field = page.getByRole('textbox', { name: 'Write a post' });
    await expect(field).toBeEditable();
    await field.fill(text);
    const cwToggle = page.getByRole('button', { name: /Content warning/ });
    const openWarning = async () => {
      await cwToggle.click();
      await expect(cwToggle).toHaveAttribute('aria-pressed', 'true');
      await page.getByRole('textbox', { name: 'Content warning' }).fill(warning);
    };
    await openWarning();
    // The composer with its warning field, laid out afresh at each size (the text is a draft and
    // stays; the warning is written again).
    await shootAndAudit(page, 'content-warnings-composer', {
      prepare: async () => {
        await page.reload();
        await expect(field).toHaveValue(text);
        await openWarning();
      },
      close: async () => {},
    });
    await page.getByRole('button', { name: /^Media/ }).click();
    const dialog = uploadDialog(page);
    await expect(dialog).toBeVisible();
    await dialog
      .locator('input.uppy-Dashboard-input[type=file]:not([webkitdirectory])')
      .first()
      .setInputFiles(pngFile('finale.png', 480, 300));
    await dialog.getByRole('button', { name: /^Upload 1 file/ }).click();
    await expect(dialog).toBeHidden();
    await page
      .getByRole('textbox', { name: 'Description of image 1' })
      .fill('The two cubes, one inside the other');
    await page.getByRole('checkbox', { name: /Mark as sensitive/ }).check();
    // The image's box, at the window's first size (a resize would leave cards below at their old
    // widths until drawn again: see freshAt), in both themes.
    await shootAndAudit(page, 'content-warnings-composer-image', {
      widths: ['1280'],
      prepare: () => page.getByRole('checkbox', { name: /Mark as sensitive/ }).scrollIntoViewIfNeeded(),
      close: async () => {},
    });
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(toasts(page).getByText('Post created successfully!')).toBeVisible();
    // The author's own card is folded too: Show is for everyone.
    await expect(postCard(page, warning).getByRole('button', { name: 'Show' })).toBeVisible();

    // The reader: only the warning and Show; no text, no image in the page.
    const rp = reader.page;
    await rp.goto('/');
    await appStarted(rp);
    const card = postCard(rp, warning);
    const show = card.getByRole('button', { name: 'Show' });
    await expect(show).toBeVisible();
    await expect(show).toHaveAttribute('aria-expanded', 'false');
    await expect(card).not.toContainText(text);
    await expect(card.getByTestId('post-images')).toHaveCount(0);
    await shootAndAudit(rp, 'content-warnings-folded', {
      prepare: () => freshAt(rp, card),
      close: async () => {},
    });

    // By keyboard: focus Show, Enter. The text shows; the image is blurred under its label.
    await show.focus();
    await rp.keyboard.press('Enter');
    const hide = card.getByRole('button', { name: 'Hide' });
    await expect(hide).toHaveAttribute('aria-expanded', 'true');
    await expect(card).toContainText(text);
    const cover = card.getByRole('button', { name: 'Sensitive content, show image 1' });
    await expect(cover).toBeVisible();
    await expect(cover.getByRole('img')).toHaveCount(0); // no text alternative while hidden
    await expect(card.getByRole('button', { name: /^ALT/ })).toHaveCount(0);
    await shootAndAudit(rp, 'content-warnings-shown', {
      prepare: () => freshAt(rp, card),
      close: async () => {},
    });

    // Reload: still open (this session), the image blurred again. Reveal it by keyboard.
    await rp.reload();
    await appStarted(rp); // the home is rendered on the server: a key before the app is the HTML's
    await expect(card.getByRole('button', { name: 'Hide' })).toBeVisible();
    await expect(card).toContainText(text);
    await cover.focus();
    await rp.keyboard.press('Enter');
    await expect(card.getByRole('button', { name: 'View full image' })).toBeVisible();
    await expect(card.getByRole('img', { name: 'The two cubes, one inside the other' })).toBeVisible();
    await expect(card.getByRole('button', { name: /^ALT/ })).toBeVisible();

    // Hide folds it again, remembered too.
    await card.getByRole('button', { name: 'Hide' }).click();
    await expect(card).not.toContainText(text);
    await rp.reload();
    await expect(card.getByRole('button', { name: 'Show' })).toBeVisible();
    await expect(card).not.toContainText(text);

    // The permalink, as a visitor's browser gets it from the server: folded, the text not in its
    // markup, the link preview says the warning alone.
    const postPath = await card.getByRole('link', { name: /open the post/ }).getAttribute('href');
    const visitor = await browser.newContext();
    const html = await (await visitor.request.get(postPath!)).text();
    const body = html.slice(html.indexOf('<body'), html.indexOf('<script', html.indexOf('<body')));
    expect(body).toContain(warning);
    expect(body).not.toContain('inside the other cube');
    expect(html).toContain(`content="Content warning: ${warning}"`);
    const vp = await visitor.newPage();
    await vp.goto(postPath!);
    await expect(vp.getByRole('button', { name: 'Show' })).toBeVisible();
    await expect(vp.getByRole('article').first()).not.toContainText(text);
    await visitor.close();

    // Settings → Privacy: both off; turn both on.
    await rp.goto('/settings#privacy');
    const cwSwitch = rp.getByRole('switch', { name: 'Always show content behind warnings' });
    const mediaSwitch = rp.getByRole('switch', { name: 'Always show sensitive media' });
    await expect(cwSwitch).toHaveAttribute('aria-checked', 'false');
    await expect(mediaSwitch).toHaveAttribute('aria-checked', 'false');
    await shootAndAudit(rp, 'content-warnings-settings', {
      prepare: async () => {
        await rp.reload();
        await rp
          .getByRole('heading', { name: 'Content warnings and sensitive media' })
          .scrollIntoViewIfNeeded();
      },
      close: async () => {},
    });
    // Each switch shows its new state at once and saves it after: the page is left only once both
    // are saved (a navigation would cut a save still on its way).
    for (const choice of [cwSwitch, mediaSwitch]) {
      const saved = answerTo(rp, 'settings.update');
      await choice.click();
      await expect(choice).toHaveAttribute('aria-checked', 'true');
      await saved;
    }

    // The card shows everything at once, the warning a line above the text; after a reload too.
    await rp.goto('/');
    await expect(card).toContainText(warning);
    await expect(card).toContainText(text);
    await expect(card.getByRole('button', { name: 'Show' })).toHaveCount(0);
    await expect(card.getByRole('img', { name: 'The two cubes, one inside the other' })).toBeVisible();
    await shootAndAudit(rp, 'content-warnings-always', {
      prepare: () => freshAt(rp, card),
      close: async () => {},
    });
    await rp.goto('/settings#privacy');
    await expect(cwSwitch).toHaveAttribute('aria-checked', 'true');

    // The REST answer carries the fields; a 201-character warning is refused in the JSON error shape.
    const id = postPath!.split('/').pop();
    const res = await reader.context.request.get(`/api/posts/${id}`);
    const { post } = await res.json();
    expect(post.contentWarning).toBe(warning);
    expect(post.images[0].sensitive).toBe(true);
    const refused = await reader.context.request.post('/api/posts', {
      data: { content: 'x', contentWarning: 'w'.repeat(201) },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({
      message: 'A content warning must be at most 200 characters',
      code: 'BAD_REQUEST',
    });

    await author.context.close();
    await reader.context.close();
  });
});
