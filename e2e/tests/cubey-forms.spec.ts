/**
 * Cubey's own forms checked by the server's schemas (useZodForm): renaming a chat to nothing says
 * "Title cannot be empty", and emptying the last message being edited says "Message cannot be
 * empty", under the field, before anything is sent. Screenshots at 1280 and 390, light and dark,
 * each checked with axe.
 */
import { expect, test } from '@playwright/test';
import { shootAndAudit, signUp, uniqueUser } from './helpers';

test("the rename and edit forms show the schema's message for an empty text", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, uniqueUser('cubeyforms'));
  await page.goto('/cubes');
  await page.getByRole('button', { name: 'CUBES' }).click();
  await page.getByRole('button', { name: 'Chat with Cubey' }).click();
  const chat = page.getByRole('region', { name: 'Conversation with Cubey' });
  const box = page.getByRole('textbox', { name: 'Message Cubey' });
  await box.fill('How do I post?');
  await box.press('Enter');
  await expect(chat.getByText('you can edit it for 15 minutes', { exact: false })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible({ timeout: 30_000 });

  await shootAndAudit(page, 'cubey-rename-empty', {
    prepare: async () => {
      await page.getByRole('button', { name: 'Rename this chat' }).click();
      const title = page.getByRole('textbox', { name: 'Chat title' });
      await title.fill('');
      await title.press('Enter');
      await expect(page.getByRole('alert').filter({ hasText: 'Title cannot be empty' })).toBeVisible();
      await expect(title).toHaveAttribute('aria-invalid', 'true');
    },
    close: () => page.getByRole('textbox', { name: 'Chat title' }).press('Escape'),
  });

  await shootAndAudit(page, 'cubey-edit-empty', {
    prepare: async () => {
      await chat.getByRole('button', { name: 'Edit your message' }).click();
      const edit = chat.getByRole('textbox', { name: 'Edit your message' });
      await edit.fill('');
      await edit.press('Enter');
      await expect(chat.getByRole('alert').filter({ hasText: 'Message cannot be empty' })).toBeVisible();
    },
    close: () => chat.getByRole('textbox', { name: 'Edit your message' }).press('Escape'),
  });
  // Nothing was sent: the chat still has its one question and answer.
  await expect(chat.getByText('How do I post?')).toBeVisible();
});
