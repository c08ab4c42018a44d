/**
 * The shared pieces of issue #47 on every screen that uses them, photographed in both themes at
 * 1280 and 390 px and checked with axe (shootAndAudit): the one tab bar (Home's feeds, a profile's
 * sections, search, notifications, the account forms; arrow keys move and choose), the one
 * password field (account forms, Settings), the one follow button and paged list (a profile's
 * Followers, Settings' Blocked users, search cards) and the Cubey chat in its parts.
 */
import { type Browser, expect, test } from '@playwright/test';
import { appStarted, createPostViaUi, newMember, shootAndAudit } from './helpers';

test.describe.configure({ timeout: 240_000 });

async function visitor(browser: Browser) {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  return { context, page: await context.newPage() };
}

test('tab bars, password fields, follow buttons, paged lists and the Cubey chat', async ({ browser }) => {
  const { page, user, context } = await newMember(browser, 'shr');
  const word = `shared${Date.now().toString(36)}`;
  await createPostViaUi(page, `A ${word} post for the tabs`);

  // Home's feeds: one tab bar, the arrow keys move and choose. The home is rendered on the server:
  // a key pressed before the app has started is the HTML's alone.
  await page.goto('/');
  await appStarted(page);
  const feeds = page.getByRole('tablist', { name: 'Feeds' });
  await feeds.getByRole('tab', { name: 'Everyone' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(feeds.getByRole('tab', { name: 'Following' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Following' })).toBeVisible();
  await shootAndAudit(page, 'shared-feed-tabs');

  // A profile's sections and its Followers list (paged, empty here).
  await page.goto('/profile');
  await appStarted(page);
  await page.getByRole('tab', { name: 'Posts' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Favorites' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Posts' }).click();
  await shootAndAudit(page, 'shared-profile-tabs');
  await shootAndAudit(page, 'shared-followers', {
    prepare: async () => {
      await page.getByRole('button', { name: /0 followers/ }).click();
      await expect(page.getByRole('dialog', { name: 'Followers' })).toContainText('No one follows');
    },
  });

  // Search: the pill tabs and a card's Follow button, whose words are its name.
  const other = await newMember(browser, 'shro');
  await page.goto(`/search?q=${other.user.username}&tab=users`);
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
  const follow = page.getByRole('button', { name: `Follow ${other.user.displayName}` });
  await follow.click();
  const unfollow = page.getByRole('button', { name: `Unfollow ${other.user.displayName}` });
  await expect(unfollow).toHaveText('Unfollow');
  await expect(unfollow).toHaveAttribute('aria-pressed', 'true');
  await shootAndAudit(page, 'shared-search-tabs');

  await page.goto('/notifications');
  await expect(page.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
  await shootAndAudit(page, 'shared-notifications-tabs');

  // Settings: the password fields (autocomplete by purpose) and the Blocked users list.
  await page.goto('/settings');
  await expect(page.getByLabel('Current password')).toHaveAttribute('autocomplete', 'current-password');
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute(
    'autocomplete',
    'new-password',
  );
  await expect(page.getByText('At least 6 characters')).toBeVisible();
  await expect(page.getByText("You haven't blocked anyone.")).toBeVisible();
  await shootAndAudit(page, 'shared-settings-passwords', {
    prepare: async () => {
      await page.getByLabel('Current password').scrollIntoViewIfNeeded();
    },
  });

  // The Cubey chat, in its parts.
  await page.goto('/cubes');
  await expect(page.getByRole('textbox', { name: 'Message Cubey' })).toBeVisible();
  await shootAndAudit(page, 'shared-cubey-chat', {
    prepare: async () => {
      await page.getByRole('region', { name: 'Conversation with Cubey' }).scrollIntoViewIfNeeded();
    },
  });
  await other.context.close();
  await context.close();

  // The account forms: pill tabs that fill the card, and the Reset tab's password field.
  const guest = await visitor(browser);
  await guest.page.goto('/auth?tab=reset');
  await expect(guest.page.getByRole('tabpanel', { name: 'Reset' })).toBeVisible();
  await guest.page.getByRole('tab', { name: 'Reset' }).focus();
  await guest.page.keyboard.press('ArrowLeft');
  await expect(guest.page.getByRole('tabpanel', { name: 'Register' })).toBeVisible();
  await expect(guest.page.getByText('At least 6 characters')).toBeVisible();
  await shootAndAudit(guest.page, 'shared-auth-tabs');
  await guest.context.close();
  expect(user.username).toBeTruthy();
});
