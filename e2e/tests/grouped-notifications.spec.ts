/**
 * Grouped notifications (issue #49), end to end: four members like one post; its author sees one
 * row, "<newest> and 3 others liked your post", with three stacked avatars, the fourth like joining
 * the row live (no reload) while the bell still counts one; opening the row reads it and lists all
 * four, each linking to their profile. The page and the bell's popover, closed and opened, are
 * photographed in both themes at 1280 and 390 px (the popover at 1280 only: a phone has the page)
 * and checked with axe (nothing serious or critical).
 */
import { type BrowserContext, expect, test } from '@playwright/test';
import { type ApiMember, CONTEXT, postOverApi, registerOverApi, shootAndAudit } from './helpers';

test.describe('grouped notifications', () => {
  test('four likes of one post are one row; opening it lists all four', async ({ browser }) => {
    test.setTimeout(180_000);
    const contexts: BrowserContext[] = [];
    const context = async () => {
      const made = await browser.newContext(CONTEXT);
      contexts.push(made);
      return made;
    };
    try {
      const authorContext = await context();
      await registerOverApi(authorContext, 'star');
      const { post } = (await postOverApi(authorContext.request, '/api/posts', {
        content: 'My first 5x5 solve, under two minutes 🧊',
      })) as { post: { id: string } };
      const fans: { member: ApiMember; context: BrowserContext }[] = [];
      for (const prefix of ['ana', 'ben', 'cleo', 'dev']) {
        const fanContext = await context();
        fans.push({ member: await registerOverApi(fanContext, prefix), context: fanContext });
      }
      const like = (i: number) => postOverApi(fans[i]!.context.request, `/api/posts/${post.id}/like`, {});
      for (const i of [0, 1, 2]) await like(i);

      const page = await authorContext.newPage();
      await page.goto('/notifications');
      const list = page.getByRole('list', { name: 'Notifications' });
      const name = (i: number) => fans[i]!.member.username;
      const row = list.getByRole('button', { name: new RegExp(`^${name(2)} and 2 others liked your post`) });
      await expect(row).toBeVisible();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(page.getByTestId('notifications-badge')).toHaveText('1');

      // The fourth like joins the row live: the count and avatars change, the bell still says 1.
      await like(3);
      const grouped = list.getByRole('button', {
        name: new RegExp(`^${name(3)} and 3 others liked your post`),
      });
      await expect(grouped).toBeVisible({ timeout: 15_000 });
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(grouped.getByTestId('notification-avatars').locator('img')).toHaveCount(3);
      await expect(page.getByTestId('notifications-badge')).toHaveText('1');

      await shootAndAudit(page, 'grouped-notifications-page', {
        prepare: async () => {
          await expect(grouped).toBeVisible();
        },
        close: async () => {},
      });

      // Opening it lists everyone, newest first, and reads the group: the badge goes.
      await grouped.click();
      await expect(grouped).toHaveAttribute('aria-expanded', 'true');
      const people = page.getByRole('list', { name: 'People who liked your post' });
      await expect(people.getByRole('link')).toHaveText(fans.map((f) => f.member.displayName).reverse());
      await expect(people.getByRole('link').first()).toHaveAttribute('href', `/profile/${name(3)}`);
      await expect(page.getByRole('link', { name: 'View post' })).toHaveAttribute(
        'href',
        `/posts/${post.id}`,
      );
      await expect(page.getByTestId('notifications-badge')).toHaveCount(0);

      await shootAndAudit(page, 'grouped-notifications-open', {
        prepare: async () => {
          if ((await grouped.getAttribute('aria-expanded')) !== 'true') await grouped.click();
          await expect(people.getByRole('link')).toHaveCount(4);
        },
        close: async () => {},
      });

      // After a reload: one row, read, the same four.
      await page.reload();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(grouped).toBeVisible();
      await expect(grouped).not.toHaveAttribute('data-unread', 'true');

      // The bell's popover shows the same row; opened there too.
      await page.goto('/');
      const popover = page.getByRole('dialog', { name: 'Notifications list' });
      const inBell = popover.getByRole('button', {
        name: new RegExp(`^${name(3)} and 3 others liked your post`),
      });
      await shootAndAudit(page, 'grouped-notifications-bell', {
        widths: ['1280'],
        prepare: async () => {
          if (!(await popover.isVisible())) await page.getByRole('button', { name: 'Notifications' }).click();
          await expect(inBell).toBeVisible();
          if ((await inBell.getAttribute('aria-expanded')) !== 'true') await inBell.click();
          await expect(
            popover.getByRole('list', { name: 'People who liked your post' }).getByRole('link'),
          ).toHaveCount(4);
        },
      });

      // A profile link in the popover leads there and closes it.
      await page.getByRole('button', { name: 'Notifications' }).click();
      await inBell.click();
      await popover.getByRole('link', { name: fans[0]!.member.displayName }).click();
      await expect(page).toHaveURL(new RegExp(`/profile/${name(0)}$`));
      await expect(popover).toHaveCount(0);
    } finally {
      for (const made of contexts) await made.close();
    }
  });
});
