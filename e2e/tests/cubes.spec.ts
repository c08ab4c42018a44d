/**
 * The Cubes page and Chat with Cubey against the real server and its offline assistant (slowed
 * down by serve.mjs): categories and tools, 'Thinking...' then the streamed reply, a reload in
 * the middle of an answer that still ends with the whole answer, Stop, and screenshots; and an
 * answer's Markdown (a table, nested and task lists, HTML that stays text) under the CSP.
 */
import { expect, type Page, test } from '@playwright/test';
import { CONTEXT, PHOTO_THEMES, setThemeViaUi, shootAndAudit, signUp, snap, uniqueUser } from './helpers';

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
    // A visitor gets the login prompt, and not the Markdown code that only a member's chats need.
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/cubes');
    await expect(page.getByText('Please login to chat with Cubey')).toBeVisible();
    expect(scripts.some((file) => file.startsWith('/assets/cubes-'))).toBe(true);
    expect(scripts.filter((file) => file.startsWith('/assets/markdown-'))).toEqual([]);
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
    await signUp(page, uniqueUser('cubey'));
    // A member's chats bring the Markdown code, a chunk of its own (a visitor's page goes without).
    const markdown = page.waitForRequest((request) =>
      /^\/assets\/markdown-[\w-]+\.js$/.test(new URL(request.url()).pathname),
    );
    await page.goto('/cubes');
    await markdown;
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

    for (const theme of PHOTO_THEMES) {
      await setThemeViaUi(page, theme);
      await page.setViewportSize({ width: 1280, height: 900 });
      await snap(page, `cubes-chat-${theme}-1280`);
      await page.setViewportSize({ width: 390, height: 844 });
      await snap(page, `cubes-chat-${theme}-390`);
    }
  });
});

/** An answer as a model might write it: what GitHub's Markdown has, and what must stay text. */
const RICH_ANSWER = [
  '**Top members this week**',
  '',
  '| Member | Posts | Likes |',
  '| :----- | ----: | :---: |',
  '| @alice | 12 | 340 |',
  '| @bob | 3 | 41 |',
  '',
  '- [x] Write the post',
  '- [ ] Add an image',
  '  - [ ] Crop it',
  '1. First',
  '   - nested',
  '',
  'Try `npm start`, see [the guide](https://example.com/guide) or [this](javascript:alert(1)).',
  'HTML stays text: <script>window.__xss = 1</script> <img src=x onerror="window.__xss = 2">',
].join('\n');

/**
 * The real `cubey.messages` answers, with the last assistant message's text replaced: the offline
 * assistant writes no tables, and this keeps every other field as the server sent it.
 */
async function answerWith(page: Page, content: string) {
  await page.route(/\/trpc\/[^?]*cubey\.messages/, async (route) => {
    const response = await route.fetch();
    const procedures = new URL(route.request().url()).pathname.replace(/^\/trpc\//, '').split(',');
    const body = await response.json();
    const results = Array.isArray(body) ? body : [body];
    procedures.forEach((procedure, i) => {
      const messages = results[i]?.result?.data?.json;
      if (procedure !== 'cubey.messages' || !Array.isArray(messages)) return;
      const answer = messages.findLast((m: { role: string }) => m.role === 'assistant');
      if (answer) answer.content = content;
    });
    await route.fulfill({ response, json: body });
  });
}

test('renders an answer with a table, nested and task lists under the CSP; HTML stays text', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.addInitScript(() => {
    const store: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = store;
    document.addEventListener('securitypolicyviolation', (e) =>
      store.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    );
  });
  await signUp(page, uniqueUser('cubeymd'));
  await page.goto('/cubes');
  await page.getByRole('button', { name: 'Chat with Cubey' }).click();
  await ask(page, 'hello');
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible({ timeout: 20_000 });

  await answerWith(page, RICH_ANSWER);
  await page.reload();
  const chat = conversation(page);
  const table = chat.getByRole('table');
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText(['Member', 'Posts', 'Likes']);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('cell', { name: '12' })).toHaveCSS('text-align', 'right');
  await expect(table.getByRole('cell', { name: '340' })).toHaveCSS('text-align', 'center');
  const boxes = chat.getByRole('checkbox');
  await expect(boxes).toHaveCount(3);
  await expect(boxes.nth(0)).toBeChecked();
  await expect(boxes.nth(1)).not.toBeChecked();
  await expect(boxes.nth(0)).toBeDisabled();
  await expect(chat.locator('ol > li > ul > li')).toHaveText('nested');
  await expect(chat.locator('ul > li > ul > li')).toHaveText('Crop it');
  const guide = chat.getByRole('link', { name: 'the guide' });
  await expect(guide).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(guide).toHaveAttribute('target', '_blank');
  await expect(chat.getByRole('link', { name: 'this' })).toHaveCount(0);
  await expect(chat.getByText('<script>window.__xss = 1</script>', { exact: false })).toBeVisible();
  await expect(chat.getByText('<img src=x onerror="window.__xss = 2">', { exact: false })).toBeVisible();
  await expect(chat.locator('script, img, [onerror]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

  for (const theme of PHOTO_THEMES) {
    await setThemeViaUi(page, theme);
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      // The answer itself, in the middle of the screen (the phone's tab bar covers the bottom).
      await table.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await snap(page, `cubes-markdown-${theme}-${width}`);
    }
  }
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
});

test.describe('the Cubes page', () => {
  test('the Cubes page: each tool has its icon and line, and says which are not set up here', async ({
    browser,
  }) => {
    const context = await browser.newContext(CONTEXT);
    const page = await context.newPage();
    const cubes = async () => {
      await page.goto('/cubes');
      await expect(page.getByRole('list', { name: 'CUBES tools' })).toBeVisible();
      await expect(page.getByText('Not set up here').first()).toBeVisible();
    };
    await cubes();
    const tools = page.getByRole('list', { name: 'CUBES tools' });
    const art = tools.getByRole('button', { name: 'Art Generator' });
    await expect(art).toHaveAccessibleDescription('Turns a prompt into an image. Not set up here');
    await expect(
      tools.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Art Generator' }) }),
    ).toContainText('Not set up here');
    // The e2e server runs the offline assistant: Cubey says so.
    await expect(tools.getByRole('button', { name: 'Chat with Cubey' })).toHaveAccessibleDescription(
      'Offline assistant: answers about the app and the community, no model connected.',
    );
    await shootAndAudit(page, 'cubes-tools', { prepare: cubes });
    await context.close();
  });
});
