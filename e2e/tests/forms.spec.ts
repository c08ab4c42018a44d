/**
 * The composers and chat boxes check with the procedure's own schema (useZodForm, issue #47): the
 * home composer (too long, as it is written), a comment box (Ctrl+Enter on an empty comment), the
 * AI Art Generator (a prompt too long), the direct-message box and the Cubey box (Enter on an empty
 * message) show the server's words under the field, tied to it, and send nothing. Screenshots at
 * 1280 and 390, light and dark, each checked with axe.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  createPostViaUi,
  MOBILE,
  registerOverApi,
  type ShootAndAuditOptions,
  shootAndAudit,
  signUp,
  toasts,
  uniqueUser,
} from './helpers';

/**
 * shootAndAudit at 1280, then at 390 after a reload. Narrowed in place after axe (which draws the
 * feed's skipped cards, `content-visibility: auto`), the home page kept its 1280 column width
 * (680 px wide at 390): a state of the check, not one a phone reaches, so the 390 pictures start
 * from a fresh layout.
 */
async function shootBothWidths(page: Page, name: string, options: ShootAndAuditOptions) {
  await shootAndAudit(page, name, { ...options, widths: ['1280'] });
  await page.setViewportSize(MOBILE);
  await page.reload();
  await shootAndAudit(page, name, { ...options, widths: ['390'] });
}

test("the composers and chat boxes show the schema's message and send nothing", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await signUp(page, uniqueUser('forms'));

  // The home composer: checked as it is written, with the count past the limit.
  const composer = page.getByRole('textbox', { name: 'Write a post' });
  await shootBothWidths(page, 'forms-composer-too-long', {
    prepare: async () => {
      await composer.fill('A cube '.repeat(290));
      await expect(
        page.getByRole('alert').filter({ hasText: 'Post must be at most 2000 characters' }),
      ).toBeVisible();
      await expect(page.getByText('2029/2000')).toBeVisible();
      await expect(composer).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
    },
    // Emptied, so leaving the page asks nothing.
    close: () => composer.fill(''),
  });

  // The AI Art Generator: a prompt too long is refused with the schema's words, nothing generates.
  await shootBothWidths(page, 'forms-art-prompt-too-long', {
    prepare: async () => {
      await page.getByRole('button', { name: 'AI Generate' }).click();
      const dialog = page.getByRole('dialog', { name: 'AI Art Generator' });
      await dialog.getByLabel('Prompt').fill('x'.repeat(1001));
      await dialog.getByRole('button', { name: 'Generate' }).click();
      await expect(dialog.getByText('Prompt must be at most 1000 characters')).toBeVisible();
      await expect(dialog.getByLabel('Prompt')).toBeFocused();
      await expect(dialog.getByRole('button', { name: 'Generating...' })).toHaveCount(0);
    },
  });

  // A comment box: Ctrl+Enter on an empty comment.
  await createPostViaUi(page, 'A post to comment on');
  const card = page.getByRole('article').filter({ hasText: 'A post to comment on' }).first();
  const commentBox = card.getByRole('textbox', { name: 'Write a comment' });
  await shootBothWidths(page, 'forms-comment-empty', {
    prepare: async () => {
      if (!(await commentBox.isVisible())) await card.getByRole('button', { name: /^Comments,/ }).click();
      await commentBox.fill('   ');
      await commentBox.press('Control+Enter');
      await expect(card.getByRole('alert').filter({ hasText: 'Comment cannot be empty' })).toBeVisible();
      await expect(commentBox).toHaveAttribute('aria-invalid', 'true');
    },
    close: () => commentBox.fill(''),
  });
  await expect(card.getByText('No comments yet.')).toBeVisible();

  // The direct-message box: Enter on an empty message.
  const peerContext = await browser.newContext();
  const peer = await registerOverApi(peerContext, 'formspeer');
  await peerContext.close();
  await page.goto(`/chat?user=${peer.id}`);
  const thread = page.getByRole('region', { name: 'Thread' });
  const messageBox = thread.getByRole('textbox', { name: 'Message' });
  await shootBothWidths(page, 'forms-message-empty', {
    prepare: async () => {
      await messageBox.fill('');
      await messageBox.press('Enter');
      await expect(thread.getByRole('alert').filter({ hasText: 'Message cannot be empty' })).toBeVisible();
      await expect(messageBox).toHaveAttribute('aria-invalid', 'true');
    },
    close: async () => {},
  });
  // Corrected, it goes, and the message under the box goes with it.
  await messageBox.fill('Hello from the forms test');
  await expect(thread.getByRole('alert')).toHaveCount(0);
  await messageBox.press('Enter');
  await expect(thread.getByRole('list', { name: 'Messages' }).getByRole('listitem')).toHaveCount(1);
  await expect(messageBox).toHaveValue('');
  await expect(thread.getByRole('alert')).toHaveCount(0);

  // The Cubey box: Enter on an empty message.
  await page.goto('/cubes');
  await page.getByRole('button', { name: 'CUBES' }).click();
  await page.getByRole('button', { name: 'Chat with Cubey' }).click();
  const cubeyBox = page.getByRole('textbox', { name: 'Message Cubey' });
  await shootBothWidths(page, 'forms-cubey-empty', {
    prepare: async () => {
      await cubeyBox.fill('');
      await cubeyBox.press('Enter');
      await expect(page.getByRole('alert').filter({ hasText: 'Message cannot be empty' })).toBeVisible();
      await expect(cubeyBox).toHaveAttribute('aria-invalid', 'true');
    },
    close: async () => {},
  });
  await expect(toasts(page).getByText(/Failed/)).toHaveCount(0);
});
