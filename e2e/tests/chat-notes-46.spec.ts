/**
 * Issue #46 on the Chat page and the notifications: links, @mentions and #tags in messages are
 * links that can be read in both bubbles and both themes (a message that is only a URL included);
 * messages group by sender, "Seen" shows once; a conversation starts from a member picked by name;
 * opening a notification marks it read (the badge drops on the member's other tab too), each shows
 * a snippet of what was said; the notifications page with its filter in the URL, and on a phone
 * the bell opens it. Screenshots at 1280 and 390 px in both themes; axe finds nothing serious or
 * critical on any of these screens.
 */
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { CONTEXT, DESKTOP, MOBILE, setThemeViaUi, snap, uniqueUser } from './helpers';

type Member = ReturnType<typeof uniqueUser> & { id: string };

/** Registers `prefix`'s member through the REST API in `context` (its cookie jar keeps the session). */
async function registerOverApi(context: BrowserContext, prefix: string): Promise<Member> {
  const user = uniqueUser(prefix);
  const res = await context.request.post('/api/auth/register', { data: user });
  expect(res.status(), await res.text()).toBe(201);
  return { ...user, id: (await res.json()).user.id };
}

async function post(request: APIRequestContext, url: string, data: object): Promise<Record<string, unknown>> {
  const res = await request.post(url, { data });
  expect(res.ok(), `${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

/** axe on what the page shows: serious and critical findings, one line per node. */
async function axe(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${screen}: ${v.id} (${v.impact}) ${n.target.join(' ')}`));
}

/**
 * Both themes at both widths: `prepare` opens what is to be shown, then it is photographed and
 * checked with axe; Escape closes what it opened. Returns the findings.
 */
async function snapAndCheck(
  page: Page,
  name: string,
  prepare: (width: '1280' | '390') => Promise<void>,
  { widths = ['1280', '390'] as ('1280' | '390')[] } = {},
): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    for (const width of widths) {
      await page.setViewportSize(width === '1280' ? DESKTOP : MOBILE);
      await setThemeViaUi(page, theme);
      await prepare(width);
      await page.evaluate(
        () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
      );
      await snap(page, `${name}-${theme}-${width}`);
      found.push(...(await axe(page, `${name} ${theme} ${width}`)));
      // A popover or dialog closes before the next theme is picked from the header.
      await page.keyboard.press('Escape');
    }
  }
  await page.setViewportSize(DESKTOP);
  await setThemeViaUi(page, 'light');
  return found;
}

test('messages: links, mentions and tags readable in both bubbles; grouped; Seen once; New message', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const aliceContext = await browser.newContext(CONTEXT);
  const bobContext = await browser.newContext(CONTEXT);
  try {
    const alice = await registerOverApi(aliceContext, 'alice');
    const bob = await registerOverApi(bobContext, 'bob');
    const toBob = (content: string) =>
      post(aliceContext.request, '/api/messages', { receiverId: bob.id, content });
    const toAlice = (content: string) =>
      post(bobContext.request, '/api/messages', { receiverId: alice.id, content });
    await toAlice(`see https://example.org/cubes and ask @${alice.username} about #cubes`);
    await toBob('https://example.org/only-a-url');
    await toBob(`thanks @${bob.username}! #cubes is great, more at https://example.org/more`);

    // Bob reads what Alice wrote: she sees "Seen" once, under her newest message.
    const bobPage = await bobContext.newPage();
    await bobPage.goto(`/chat?user=${alice.id}`);
    await expect(bobPage.getByRole('region', { name: 'Thread' }).getByText(/thanks/)).toBeVisible();

    const page = await aliceContext.newPage();
    await page.goto(`/chat?user=${bob.id}`);
    const thread = page.getByRole('region', { name: 'Thread' });
    const bubbles = thread.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await expect(bubbles).toHaveCount(3);
    await expect(thread.getByText('Seen')).toHaveCount(1);
    await expect(bubbles.nth(2).getByText('Seen')).toBeVisible();
    // One group of Alice's two messages: one time, under the second.
    await expect(bubbles.nth(1).locator('time')).toHaveCount(0);
    await expect(bubbles.nth(2).locator('time')).toHaveCount(1);

    // The message that is only a URL: its link is there, and not drawn in the bubble's own colour.
    const only = bubbles.nth(1).getByRole('link', { name: 'https://example.org/only-a-url' });
    await expect(only).toBeVisible();
    for (const theme of ['light', 'dark'] as const) {
      await setThemeViaUi(page, theme);
      const colours = await only.evaluate((a) => {
        let bubble = a.parentElement;
        while (bubble && getComputedStyle(bubble).backgroundColor === 'rgba(0, 0, 0, 0)') {
          bubble = bubble.parentElement;
        }
        return {
          link: getComputedStyle(a).color,
          bubble: bubble ? getComputedStyle(bubble).backgroundColor : '',
        };
      });
      expect(colours.link, theme).not.toBe(colours.bubble);
    }
    await setThemeViaUi(page, 'light');
    for (const [i, names] of [
      [0, ['https://example.org/cubes', `@${alice.username}`, '#cubes']],
      [2, [`@${bob.username}`, '#cubes', 'https://example.org/more']],
    ] as const) {
      await expect(bubbles.nth(i).getByRole('link')).toHaveText([...names]);
    }
    await expect(bubbles.nth(2).getByRole('link', { name: '#cubes' })).toHaveAttribute('href', '/tags/cubes');

    const found = await snapAndCheck(page, 'chat-links-46', async (width) => {
      if (width === '390' && !(await thread.isVisible())) await page.goto(`/chat?user=${bob.id}`);
      await expect(bubbles.nth(2).getByText('Seen')).toBeVisible();
    });

    // New message: pick a member by name.
    const carol = await registerOverApi(await browser.newContext(CONTEXT), 'carol');
    await page.goto('/chat');
    const openPicker = async () => {
      if (!(await page.getByRole('dialog', { name: 'New message' }).isVisible())) {
        const list = page.getByRole('region', { name: 'Conversations' });
        if (!(await list.isVisible())) await page.goto('/chat');
        await page.getByRole('button', { name: 'New message' }).click();
      }
      const dialog = page.getByRole('dialog', { name: 'New message' });
      await dialog.getByRole('searchbox', { name: 'Search members' }).fill(carol.username);
      await expect(dialog.getByRole('button', { name: new RegExp(carol.displayName) })).toBeVisible();
    };
    found.push(...(await snapAndCheck(page, 'chat-new-message-46', openPicker)));
    await openPicker();
    await page
      .getByRole('dialog', { name: 'New message' })
      .getByRole('button', { name: new RegExp(carol.displayName) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/chat\\?user=${carol.id}$`));
    await expect(thread.getByRole('heading', { name: carol.displayName })).toBeVisible();

    expect(found).toEqual([]);
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

test('notifications: snippets, opening one reads it on every tab, the page with its filter, the phone bell', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const aliceContext = await browser.newContext(CONTEXT);
  const bobContext = await browser.newContext(CONTEXT);
  try {
    const alice = await registerOverApi(aliceContext, 'alice');
    await registerOverApi(bobContext, 'bob');
    const { post: bobsPost } = (await post(bobContext.request, '/api/posts', {
      content: `Welcome @${alice.username}! The #cubes meetup is on Friday.`,
    })) as { post: { id: string } };
    await post(bobContext.request, `/api/posts/${bobsPost.id}/comments`, {
      content: `@${alice.username} bring the 4x4, please`,
    });
    await post(bobContext.request, `/api/users/${alice.id}/follow`, {});

    const page = await aliceContext.newPage();
    const other = await aliceContext.newPage();
    await page.goto('/');
    await other.goto('/');
    const bell = page.getByRole('button', { name: 'Notifications' });
    await expect(page.getByTestId('notifications-badge')).toHaveText('3');
    await expect(other.getByTestId('notifications-badge')).toHaveText('3');

    const popover = page.getByRole('dialog', { name: 'Notifications list' });
    const openBell = async () => {
      if (!(await popover.isVisible())) await bell.click();
      await expect(popover.getByTestId('notification-snippet')).toHaveCount(2);
    };
    await openBell();
    // Two "mentioned you" lines told apart by what was said.
    await expect(popover.getByTestId('notification-snippet')).toHaveText([
      `: “@${alice.username} bring the 4x4, please”`,
      `: “Welcome @${alice.username}! The #cubes meetup is on Friday.”`,
    ]);
    const found = await snapAndCheck(page, 'notifications-popover-46', openBell, { widths: ['1280'] });

    // Opening one marks it read: the badge drops here and on the other tab, live.
    await openBell();
    await popover.getByRole('button', { name: /bring the 4x4/ }).click();
    await expect(page).toHaveURL(new RegExp(`/\\?post=${bobsPost.id}$`));
    await expect(page.getByTestId('notifications-badge')).toHaveText('2');
    await expect(other.getByTestId('notifications-badge')).toHaveText('2');

    // The page, all and mentions; the filter is in the URL.
    await page.goto('/notifications');
    const list = page.getByRole('list', { name: 'Notifications' });
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await page.getByRole('tab', { name: 'Mentions' }).click();
    await expect(page).toHaveURL(/\/notifications\?filter=mentions$/);
    await expect(page.getByRole('list', { name: 'Mentions' }).getByRole('listitem')).toHaveCount(2);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Mentions' })).toHaveAttribute('aria-selected', 'true');
    found.push(
      ...(await snapAndCheck(page, 'notifications-page-46', async () => {
        await expect(page.getByRole('list', { name: 'Mentions' }).getByRole('listitem')).toHaveCount(2);
      })),
    );
    await page.getByRole('tab', { name: 'All' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    found.push(
      ...(await snapAndCheck(page, 'notifications-page-all-46', async () => {
        await expect(list.getByRole('listitem')).toHaveCount(3);
      })),
    );

    // A new one arrives live on the open page.
    await post(bobContext.request, `/api/posts/${bobsPost.id}/comments`, {
      content: `one more, @${alice.username}`,
    });
    await expect(list.getByRole('listitem')).toHaveCount(4);

    // On a phone the bell is a link to the page.
    await page.setViewportSize(MOBILE);
    await page.goto('/');
    await page.getByRole('link', { name: 'Notifications' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();

    // Mark all as read empties the badge on both tabs.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(page.getByTestId('notifications-badge')).toHaveCount(0);
    await expect(other.getByTestId('notifications-badge')).toHaveCount(0);

    // Nothing yet: the empty states.
    const newcomer = await browser.newContext(CONTEXT);
    await registerOverApi(newcomer, 'newbie');
    const empty = await newcomer.newPage();
    await empty.goto('/notifications?filter=mentions');
    await expect(empty.getByText('No mentions yet')).toBeVisible();
    found.push(
      ...(await snapAndCheck(empty, 'notifications-empty-46', async () => {
        await expect(empty.getByText('No mentions yet')).toBeVisible();
      })),
    );
    await newcomer.close();

    expect(found).toEqual([]);
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});
