/**
 * The Cubes page and Chat with Cubey against the real server and its offline assistant (slowed
 * down by serve.mjs): categories and tools, 'Thinking...' then the streamed reply, a reload in
 * the middle of an answer that still ends with the whole answer, Stop, and screenshots.
 */
import { expect, type Page, test } from '@playwright/test';
import { registerViaUi, setThemeViaUi, snap, uniqueUser } from './helpers';

const TOOLS = {
  CUBES: ['Chat with Cubey', 'Art Generator', 'Music AI', 'Fun AI', 'Video AI'],
  'SOCIAL AI': ['X AI Agent', 'TikTok AI Agent', 'Whatsapp AIA', 'Telegram AIA', 'Xchat', 'Xcube'],
  VIP: ['Premium ART', 'Premium MUSIC AI', 'Premium FUN AI', 'Premium Video AI', 'Alpha Cube'],
  CUBE3: [
    'Crypto AI Analyzer',
    'Swappy Cube',
    'Bridge Cube',
    'Staking cube and Rewards',
    'L.L.C Revenue shares',
  ],
} as const;

function conversation(page: Page) {
  return page.getByRole('region', { name: 'Conversation with Cubey' });
}

async function ask(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message Cubey' });
  await box.fill(text);
  await box.press('Enter');
}

test.describe('Cubes', () => {
  test('shows every category and its tools; soon tools are disabled', async ({ page }) => {
    await page.goto('/cubes');
    for (const [category, names] of Object.entries(TOOLS)) {
      await page.getByRole('group', { name: 'Category' }).getByRole('button', { name: category }).click();
      const grid = page.getByRole('list', { name: `${category} tools` });
      await expect(grid.getByRole('button')).toHaveCount(names.length);
      for (const name of names)
        await expect(
          grid.getByRole('button', { name: new RegExp(`^${name.replace(/[.]/g, '\\.')}`) }),
        ).toBeVisible();
    }
    await page.getByRole('button', { name: 'VIP' }).click();
    await expect(page.getByRole('button', { name: /^Alpha Cube/ })).toBeDisabled();
    await expect(page.getByText('Every VIP tool is coming soon.')).toBeVisible();
    await page.getByRole('button', { name: 'SOCIAL AI' }).click();
    await page.getByRole('button', { name: 'Xcube' }).click();
    await expect(page.getByLabel('Your post')).toHaveValue(/100th cube/);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Xcube' })).toHaveAttribute('aria-pressed', 'true');
  });

  test('chats with Cubey: Thinking..., the reply, a reload mid-answer, Stop', async ({ page }) => {
    test.setTimeout(90_000);
    await registerViaUi(page, uniqueUser('cubey'));
    await page.goto('/cubes');
    await page.getByRole('button', { name: 'CUBES' }).click();
    await page.getByRole('button', { name: 'Chat with Cubey' }).click();
    const chat = conversation(page);

    await ask(page, 'How do I post?');
    await expect(chat.getByText('How do I post?')).toBeVisible();
    await expect(chat.getByText('Thinking...')).toBeVisible();
    await expect(chat.getByText('you can edit it for 15 minutes', { exact: false })).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible();

    // A long answer, and a reload while it is being written: the page picks it up and finishes it.
    await ask(page, 'Who are you?');
    await expect(chat.getByText('running as the', { exact: false })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await page.reload();
    await expect(conversation(page).getByText('running as the', { exact: false })).toBeVisible();
    await expect(conversation(page).getByText('How do messages work?', { exact: false })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible();
    const sessions = await (await page.request.get('/api/cubey/sessions')).json();
    const messages = await (await page.request.get(`/api/cubey/sessions/${sessions[0].id}/messages`)).json();
    expect(messages.at(-1).status).toBe('done');
    expect(messages.at(-1).content).toContain('How do messages work?');
    expect(messages.at(-1).content).toContain('running as the');

    // Stop keeps what was said, marked stopped.
    await ask(page, 'hello');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(conversation(page).getByText(/^Hi @/)).toBeVisible({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(conversation(page).getByText('Stopped')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible();
    const after = await (await page.request.get(`/api/cubey/sessions/${sessions[0].id}/messages`)).json();
    expect(after.at(-1).status).toBe('stopped');
    expect(after.at(-1).content).toMatch(/^Hi @/);
    expect(after.at(-1).content).not.toContain('How do messages work?');

    for (const theme of ['light', 'dark'] as const) {
      await setThemeViaUi(page, theme);
      await page.setViewportSize({ width: 1280, height: 900 });
      await snap(page, `cubes-chat-${theme}-1280`);
      await page.setViewportSize({ width: 390, height: 844 });
      await snap(page, `cubes-chat-${theme}-390`);
    }
  });
});
