/**
 * Notifications: each shows a snippet of what was said; opening one marks it read (the badge
 * drops on the member's other tab too); the notifications page with its filter in the URL, new
 * ones arriving live, and its empty state; on a phone the bell opens the page. Screenshots at 1280
 * and 390 px in both themes (the bell's popover at 1280 only: a phone has the page); axe finds
 * nothing serious or critical on any of them.
 */
import { type Browser, expect, test } from '@playwright/test';
import { CONTEXT, DESKTOP, MOBILE, postOverApi, registerOverApi, shootAndAudit } from './helpers';

/**
 * Alice with three notifications from Bob: a mention in his post, a mention in his comment on
 * it, and his follow. Her page is open at home; `close` ends both members' contexts.
 */
async function aliceWithThree(browser: Browser) {
  const aliceContext = await browser.newContext(CONTEXT);
  const bobContext = await browser.newContext(CONTEXT);
  const alice = await registerOverApi(aliceContext, 'alice');
  await registerOverApi(bobContext, 'poster');
  const { post: bobsPost } = (await postOverApi(bobContext.request, '/api/posts', {
    content: `Welcome @${alice.username}! The #cubes meetup is on Friday.`,
  })) as { post: { id: string } };
  await postOverApi(bobContext.request, `/api/posts/${bobsPost.id}/comments`, {
    content: `@${alice.username} bring the 4x4, please`,
  });
  await postOverApi(bobContext.request, `/api/users/${alice.id}/follow`, {});
  const page = await aliceContext.newPage();
  await page.goto('/');
  // The three are written after each request has answered (the bus's batched bells): on a busy
  // machine they can take longer than an assertion's usual 7 s; this ends when the badge says 3.
  await expect(page.getByTestId('notifications-badge')).toHaveText('3', { timeout: 20_000 });
  return {
    alice,
    aliceContext,
    bobContext,
    bobsPost,
    page,
    close: async () => {
      await aliceContext.close();
      await bobContext.close();
    },
  };
}

test.describe('notifications', () => {
  /** Alice's bell, open on her home page. */
  async function bellOpen(browser: Browser) {
    const setup = await aliceWithThree(browser);
    const { page } = setup;
    const popover = page.getByRole('dialog', { name: 'Notifications list' });
    const openBell = async () => {
      if (!(await popover.isVisible())) await page.getByRole('button', { name: 'Notifications' }).click();
      await expect(popover.getByTestId('notification-snippet')).toHaveCount(2);
    };
    await openBell();
    return { ...setup, popover, openBell };
  }

  test("the bell's popover tells two mentions apart by a snippet of what was said", async ({ browser }) => {
    const { alice, popover, close } = await bellOpen(browser);
    try {
      await expect(popover.getByTestId('notification-snippet')).toHaveText([
        `: “@${alice.username} bring the 4x4, please”`,
        `: “Welcome @${alice.username}! The #cubes meetup is on Friday.”`,
      ]);
    } finally {
      await close();
    }
  });

  // One theme per test: axe over the home feed behind the popover takes seconds.
  for (const theme of ['light', 'dark'] as const) {
    test(`the bell's popover in the ${theme} theme`, async ({ browser }) => {
      const { page, openBell, close } = await bellOpen(browser);
      try {
        await shootAndAudit(page, 'notifications-popover', {
          prepare: openBell,
          widths: ['1280'],
          themes: [theme],
        });
      } finally {
        await close();
      }
    });
  }

  test("opening one marks it read: the badge drops here and on the member's other tab, live", async ({
    browser,
  }) => {
    const { aliceContext, bobsPost, page, close } = await aliceWithThree(browser);
    try {
      const other = await aliceContext.newPage();
      await other.goto('/');
      await expect(other.getByTestId('notifications-badge')).toHaveText('3');
      await page.getByRole('button', { name: 'Notifications' }).click();
      const popover = page.getByRole('dialog', { name: 'Notifications list' });
      await popover.getByRole('button', { name: /bring the 4x4/ }).click();
      await expect(page).toHaveURL(new RegExp(`/posts/${bobsPost.id}$`));
      await expect(page.getByTestId('notifications-badge')).toHaveText('2');
      await expect(other.getByTestId('notifications-badge')).toHaveText('2');
    } finally {
      await close();
    }
  });

  test('the page filters mentions, with the filter in the URL, kept over a reload', async ({ browser }) => {
    const { page, close } = await aliceWithThree(browser);
    try {
      await page.goto('/notifications');
      await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem')).toHaveCount(3);
      await page.getByRole('tab', { name: 'Mentions' }).click();
      await expect(page).toHaveURL(/\/notifications\?filter=mentions$/);
      const mentions = page.getByRole('list', { name: 'Mentions' }).getByRole('listitem');
      await expect(mentions).toHaveCount(2);
      await page.reload();
      await expect(page.getByRole('tab', { name: 'Mentions' })).toHaveAttribute('aria-selected', 'true');
      await shootAndAudit(page, 'notifications-page-mentions', {
        prepare: async () => {
          await expect(mentions).toHaveCount(2);
        },
      });
      await page.getByRole('tab', { name: 'All' }).click();
      await expect(page).toHaveURL(/\/notifications$/);
    } finally {
      await close();
    }
  });

  test('the page shows all, and a new one arrives on it live', async ({ browser }) => {
    const { alice, bobContext, bobsPost, page, close } = await aliceWithThree(browser);
    try {
      await page.goto('/notifications');
      const list = page.getByRole('list', { name: 'Notifications' });
      await shootAndAudit(page, 'notifications-page', {
        prepare: async () => {
          await expect(list.getByRole('listitem')).toHaveCount(3);
        },
      });
      await postOverApi(bobContext.request, `/api/posts/${bobsPost.id}/comments`, {
        content: `one more, @${alice.username}`,
      });
      await expect(list.getByRole('listitem')).toHaveCount(4);
    } finally {
      await close();
    }
  });

  test('on a phone the bell is a link to the page; Mark all as read empties the badge on both tabs', async ({
    browser,
  }) => {
    const { aliceContext, page, close } = await aliceWithThree(browser);
    try {
      const other = await aliceContext.newPage();
      await other.goto('/');
      await expect(other.getByTestId('notifications-badge')).toHaveText('3');
      await page.setViewportSize(MOBILE);
      await page.getByRole('link', { name: 'Notifications' }).click();
      await expect(page).toHaveURL(/\/notifications$/);
      await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();

      await page.setViewportSize(DESKTOP);
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await expect(page.getByTestId('notifications-badge')).toHaveCount(0);
      await expect(other.getByTestId('notifications-badge')).toHaveCount(0);
    } finally {
      await close();
    }
  });

  test('nothing yet: the empty state of the mentions filter', async ({ browser }) => {
    const newcomer = await browser.newContext(CONTEXT);
    try {
      await registerOverApi(newcomer, 'newbie');
      const empty = await newcomer.newPage();
      await empty.goto('/notifications?filter=mentions');
      await expect(empty.getByText('No mentions yet')).toBeVisible();
      await shootAndAudit(empty, 'notifications-empty', {
        prepare: async () => {
          await expect(empty.getByText('No mentions yet')).toBeVisible();
        },
      });
    } finally {
      await newcomer.close();
    }
  });
});
