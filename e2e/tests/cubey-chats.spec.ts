/**
 * Cubey's rich answers and chats you manage, against the real server and its offline assistant
 * (slowed down by serve.mjs): an answer streams a table (shown as a table while it is still being
 * written), a nested list and highlighted code, with Copy, and no CSP violation; a chat is renamed
 * (live in a second tab), found by search, its last message edited and resent with ‹ 1/2 ›
 * versions, deleted and brought back with Undo. Screenshots at 1280 and 390, light and dark.
 */
import { expect, type Page, test } from '@playwright/test';
import { PHOTO_THEMES, setThemeViaUi, signUp, snap, uniqueUser } from './helpers';

function conversation(page: Page) {
  return page.getByRole('region', { name: 'Conversation with Cubey' });
}

async function openChat(page: Page) {
  await page.goto('/cubes');
  await page.getByRole('button', { name: 'CUBES' }).click();
  await page.getByRole('button', { name: 'Chat with Cubey' }).click();
}

async function ask(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message Cubey' });
  await box.fill(text);
  await box.press('Enter');
}

test('streams a table, a nested list and highlighted code with Copy, under the CSP', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(() => {
    const store: string[] = [];
    const w = window as unknown as { __csp: string[]; __tableWhileStreaming?: boolean };
    w.__csp = store;
    document.addEventListener('securitypolicyviolation', (e) =>
      store.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    );
    // Whether a table was on the page while the answer was still being written (Stop shown).
    new MutationObserver(() => {
      if (w.__tableWhileStreaming) return;
      const stop = Array.from(document.querySelectorAll('button')).some(
        (b) => b.textContent?.trim() === 'Stop',
      );
      if (stop && document.querySelector('[aria-label="Conversation with Cubey"] table th')) {
        w.__tableWhileStreaming = true;
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await signUp(page, uniqueUser('cubeyrich'));
  await openChat(page);
  const chat = conversation(page);
  await ask(page, 'How do you format answers?');

  const table = chat.getByRole('table');
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('columnheader')).toHaveText(['Element', 'You write', 'It shows']);
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible({ timeout: 30_000 });
  // The table was a table while the answer was still being written.
  expect(
    await page.evaluate(
      () => (window as unknown as { __tableWhileStreaming?: boolean }).__tableWhileStreaming,
    ),
  ).toBe(true);
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.locator('del')).toHaveText('cube');
  await expect(chat.locator('ul > li > ul > li').first()).toContainText('a step inside a step');
  await expect(chat.getByRole('checkbox')).toBeChecked();
  const code = chat.locator('pre code');
  await expect(code.locator('.hljs-keyword').first()).toHaveText('const');
  await expect(code.locator('.hljs-string').first()).toHaveText("'violet'");
  const keywordColour = await code
    .locator('.hljs-keyword')
    .first()
    .evaluate((el) => getComputedStyle(el).color);
  const plainColour = await code.evaluate((el) => getComputedStyle(el).color);
  expect(keywordColour).not.toBe(plainColour);

  await chat.getByRole('button', { name: 'Copy code' }).click();
  await expect(chat.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    "const cube = { sides: 6, color: 'violet' };\nconsole.log('A cube has', cube.sides, 'sides');",
  );
  await chat.getByRole('button', { name: 'Copy answer' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
    '| Element | You write | It shows |',
  );

  for (const theme of PHOTO_THEMES) {
    await setThemeViaUi(page, theme);
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await code.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await snap(page, `cubey-rich-${theme}-${width}`);
    }
  }
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
});

test('renames (live in another tab), searches, edits and resends with versions, deletes with Undo', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueUser('cubeychats'));
  await openChat(page);
  const chat = conversation(page);
  await ask(page, 'How do I post?');
  await expect(chat.getByText('you can edit it for 15 minutes', { exact: false })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible();

  // A second tab follows every change.
  const other = await context.newPage();
  await openChat(other);
  const otherChats = other.getByRole('navigation', { name: 'Chats' });

  await page.getByRole('button', { name: 'Rename this chat' }).click();
  const title = page.getByRole('textbox', { name: 'Chat title' });
  await title.fill('Posting help 🧊');
  await title.press('Enter');
  const chats = page.getByRole('navigation', { name: 'Chats' });
  await expect(chats.getByRole('button', { name: 'Posting help 🧊' })).toBeVisible();
  await expect(otherChats.getByRole('button', { name: 'Posting help 🧊' })).toBeVisible();

  // Edit the last message and resend it: the new answer replaces the old, the old is version 1/2.
  await chat.getByRole('button', { name: 'Edit your message' }).click();
  const editBox = chat.getByRole('textbox', { name: 'Edit your message' });
  await editBox.fill('How do I upload an image?');
  await editBox.press('Enter');
  await expect(chat.getByText('Uploading an image')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible({ timeout: 20_000 });
  const versions = chat.getByRole('navigation', { name: 'Versions of this message' });
  await expect(versions).toContainText('2/2');
  await expect(chat.getByText('you can edit it for 15 minutes', { exact: false })).toHaveCount(0);
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(versions).toContainText('1/2');
  await expect(chat.getByText('How do I post?')).toBeVisible();
  await expect(chat.getByText('you can edit it for 15 minutes', { exact: false })).toBeVisible();
  await expect(chat.getByText('Uploading an image')).toHaveCount(0);
  await versions.getByRole('button', { name: 'Next version' }).click();
  await expect(chat.getByText('Uploading an image')).toBeVisible();

  // A second chat, then search finds the first by a word of its messages.
  await page.getByRole('button', { name: 'New Chat' }).click();
  await ask(page, 'hello');
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible({ timeout: 30_000 });
  await chats.getByRole('searchbox', { name: 'Search your chats' }).fill('webp');
  const matching = chats.getByRole('list', { name: 'Matching chats' });
  await expect(matching.getByRole('button')).toHaveCount(1);
  await expect(matching.getByRole('button')).toContainText('Posting help 🧊');

  for (const theme of PHOTO_THEMES) {
    await setThemeViaUi(page, theme);
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await snap(page, `cubey-chats-search-${theme}-${width}`, { fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await setThemeViaUi(page, 'light');
  await matching.getByRole('button').click();
  await expect(chat.getByText('Uploading an image')).toBeVisible();

  // Delete, with a question first; Undo brings it back with its messages.
  await page.getByRole('button', { name: 'Delete this chat' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Delete this chat?');
  await snap(page, 'cubey-chats-delete-light-1280');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(chats.getByRole('button', { name: 'Posting help 🧊' })).toHaveCount(0);
  await expect(otherChats.getByRole('button', { name: 'Posting help 🧊' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(chats.getByRole('button', { name: 'Posting help 🧊' })).toBeVisible();
  await expect(otherChats.getByRole('button', { name: 'Posting help 🧊' })).toBeVisible();
  await expect(chat.getByText('Uploading an image')).toBeVisible();
  await expect(chat.getByRole('navigation', { name: 'Versions of this message' })).toContainText('2/2');
});
