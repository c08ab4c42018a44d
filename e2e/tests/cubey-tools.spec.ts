/**
 * Cubey with a model that uses the tools: a second production server of its own (serve.mjs with
 * E2E_CUBEY_MODEL=1: a local chat-completions server that asks for tool calls), on E2E_PORT + 40
 * with its own data directory. The answer shows the look-ups it made with links to the posts and
 * members it used, the same after a reload, and the tokens left today; a source link opens the
 * post on its author's profile; a look-up shows while the model is still thinking. Screens in both
 * themes at both widths.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { CONTEXT, signUp, snap, snapAll, uniqueUser } from './helpers';

const here = path.dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.E2E_PORT ?? 3210) + 40;
const base = `http://localhost:${port}`;
let server: ChildProcess | null = null;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = spawn(process.execPath, ['serve.mjs'], {
    cwd: path.resolve(here, '..'),
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), E2E_CUBEY_MODEL: '1', E2E_DATA_DIR: '.data-tools' },
  });
  const deadline = Date.now() + 170_000;
  for (;;) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('the tools server did not start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
});

async function ask(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message Cubey' });
  await box.fill(text);
  await box.press('Enter');
}

test('a model’s answer shows its look-ups and sources, after a reload too, and the tokens left', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ ...CONTEXT, baseURL: base });
  const page = await context.newPage();
  await signUp(page, uniqueUser('tools'));
  await page.goto('/cubes');
  await page.getByRole('button', { name: 'Chat with Cubey' }).click();
  const chat = page.getByRole('region', { name: 'Conversation with Cubey' });

  await ask(page, 'What do people post about cubes?');
  await expect(chat.getByText('Here is what I found:')).toBeVisible({ timeout: 20_000 });
  const lookups = chat.getByRole('list', { name: 'Look-ups Cubey made' }).first();
  await expect(lookups.getByText("Searched posts for 'cubes'")).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('cubey-usage')).toHaveText(/^\d[\d,]* of 50,000 tokens left today$/);

  // The sources, folded under the look-up, open with the keyboard.
  await lookups.locator('summary').first().focus();
  await page.keyboard.press('Enter');
  const links = lookups.getByRole('link');
  await expect(links.first()).toBeVisible();
  expect(await links.count()).toBeGreaterThan(1);
  // A post's source is its own page; its text names its author (`@name: the post's words`).
  await expect(links.first()).toHaveAttribute('href', /^\/posts\/[0-9a-f-]{36}$/);
  const username = (await links.first().textContent())!.match(/^@(\w+):/)![1]!;

  // A reload shows the same answer and look-ups.
  await page.reload();
  await expect(chat.getByText('Here is what I found:')).toBeVisible();
  await expect(lookups.getByText("Searched posts for 'cubes'")).toBeVisible();
  // The answer is done once Regenerate can be pressed: Enter sends nothing while Cubey is busy.
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeEnabled({ timeout: 20_000 });

  // A member by name: the profile look-up, as a second answer in the same chat.
  await ask(page, `Tell me about @${decodeURIComponent(username)}`);
  const second = chat.getByRole('list', { name: 'Look-ups Cubey made' }).nth(1);
  await expect(second.getByText(`Looked up @${decodeURIComponent(username)}`)).toBeVisible({
    timeout: 20_000,
  });
  await expect(second.getByText(/· \d+ sources?/)).toBeVisible();

  // Its look-up shows before its words: the answer is done once Regenerate is back.
  await expect(chat.getByText('Here is what I found:').nth(1)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible({ timeout: 20_000 });

  // A look-up shows as soon as it is made, above Thinking..., before the model writes a word.
  await ask(page, 'Slowly, what do people post about cubes?');
  const third = chat.getByRole('list', { name: 'Look-ups Cubey made' }).nth(2);
  await expect(third.getByText("Searched posts for 'cubes'")).toBeVisible({ timeout: 10_000 });
  const thinking = chat.getByRole('status').filter({ hasText: 'Thinking...' });
  await expect(thinking).toBeVisible();
  // The conversation follows it down, as it follows the words.
  await expect(thinking).toBeInViewport();
  await snap(page, 'cubey-tools-live-light-1280');
  await expect(chat.getByText('Here is what I found:').nth(2)).toBeVisible({ timeout: 20_000 });
  await expect(thinking).toHaveCount(0);

  await snapAll(page, 'cubey-tools', async () => {
    const first = lookups.locator('details').first();
    if ((await first.getAttribute('open')) === null) await first.locator('summary').click();
    await chat.locator('div[aria-live]').evaluate((el) => {
      el.scrollTop = 0;
    });
  });

  const details = lookups.locator('details').first();
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  const postLink = lookups.getByRole('link').first();
  await expect(postLink).toBeVisible();
  const href = (await postLink.getAttribute('href'))!;
  await postLink.click();
  await expect(page).toHaveURL(new RegExp(`${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await context.close();
});
