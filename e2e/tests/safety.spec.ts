import { expect, type Page, test } from '@playwright/test';
import {
  createPostViaUi,
  DESKTOP,
  MOBILE,
  newPage,
  postCard,
  setThemeViaUi,
  signUp,
  snap,
  snapAll,
  toasts,
  uniqueUser,
} from './helpers.js';

/** The current theme at 1280 and 390 px. */
async function snapSizes(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await snap(page, `${name}-1280`);
  await page.setViewportSize(MOBILE);
  await snap(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

test.describe('safety: block and mute', () => {
  test('block from a profile: posts, follows and the profile go; Settings undoes it; mute hides posts', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const bob = uniqueUser('bob');
    const alice = uniqueUser('alice');
    const bobPage = await newPage(browser);
    const alicePage = await newPage(browser);

    await signUp(bobPage, bob);
    const text = `Cubes all the way down, says ${bob.username}`;
    await createPostViaUi(bobPage, text);

    // Alice follows Bob and sees his post.
    await signUp(alicePage, alice);
    await expect(postCard(alicePage, text)).toBeVisible();
    await alicePage.goto(`/profile/${bob.username}`);
    await alicePage.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(alicePage.getByRole('button', { name: 'Unfollow' })).toBeVisible();
    await expect(alicePage.getByRole('list', { name: 'Profile stats' })).toContainText('1 follower');

    // She blocks him from his profile, after a confirmation (Cancel first: nothing happens).
    const openBlockDialog = async () => {
      await alicePage.getByRole('button', { name: `More actions for @${bob.username}` }).click();
      await alicePage.getByRole('menuitem', { name: `Block @${bob.username}` }).click();
      const dialog = alicePage.getByRole('alertdialog', { name: `Block @${bob.username}?` });
      await expect(dialog).toBeVisible();
      return dialog;
    };
    for (const theme of ['light', 'dark'] as const) {
      await setThemeViaUi(alicePage, theme);
      const dialog = await openBlockDialog();
      await snapSizes(alicePage, `safety-block-confirm-${theme}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
      // Focus goes back to the menu's button, not to the page (the item it came from is gone).
      await expect(
        alicePage.getByRole('button', { name: `More actions for @${bob.username}` }),
      ).toBeFocused();
    }
    await setThemeViaUi(alicePage, 'light');
    await expect(alicePage.getByRole('button', { name: 'Unfollow' })).toBeVisible();
    await (await openBlockDialog()).getByRole('button', { name: 'Block', exact: true }).click();
    await expect(toasts(alicePage).getByText(`You blocked @${bob.username}`)).toBeVisible();
    await expect(
      alicePage.getByText(`You blocked @${bob.username}. You don't see each other's posts or details.`),
    ).toBeVisible();
    await expect(alicePage.getByRole('tab', { name: 'Posts' })).toHaveCount(0);
    await expect(alicePage.getByRole('button', { name: 'Unblock' })).toBeVisible();
    // A blocked pair sees no counts of each other (issue #45): the stats go with the posts.
    await expect(alicePage.getByRole('list', { name: 'Profile stats' })).toHaveCount(0);
    await snapAll(alicePage, 'safety-profile-blocked');

    // His post is gone from her feed.
    await alicePage.goto('/');
    await expect(alicePage.getByRole('list', { name: 'Posts' })).toBeVisible();
    await expect(postCard(alicePage, text)).toHaveCount(0);

    // Bob sees he is blocked: no details, no Follow, no Message.
    await bobPage.goto(`/profile/${alice.username}`);
    await expect(
      bobPage.getByText(`@${alice.username} blocked you. You can't see their posts or details.`),
    ).toBeVisible();
    await expect(bobPage.getByRole('button', { name: 'Follow', exact: true })).toHaveCount(0);
    await expect(bobPage.getByRole('button', { name: 'Message' })).toHaveCount(0);
    await snap(bobPage, 'safety-profile-blocked-by-light-1280');

    // Settings lists Bob with an undo.
    await alicePage.goto('/settings');
    const blocked = alicePage.getByRole('region', { name: 'Blocked users' });
    await expect(blocked.getByText(`@${bob.username}`)).toBeVisible();
    await expect(alicePage.getByRole('region', { name: 'Muted users' })).toContainText(
      "You haven't muted anyone.",
    );
    await blocked.scrollIntoViewIfNeeded();
    await snapAll(alicePage, 'safety-settings-blocked');
    await blocked.getByRole('button', { name: `Unblock @${bob.username}` }).click();
    await expect(toasts(alicePage).getByText(`You unblocked @${bob.username}`)).toBeVisible();
    await expect(blocked).toContainText("You haven't blocked anyone.");
    await alicePage.goto('/');
    await expect(postCard(alicePage, text)).toBeVisible();

    // The follow ended with the block: unblocked, his profile counts no follower and offers Follow.
    await alicePage.goto(`/profile/${bob.username}`);
    await expect(alicePage.getByRole('list', { name: 'Profile stats' })).toContainText('0 followers');
    await expect(alicePage.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();

    // Mute: his posts leave her feed; his profile stays; Settings lists him.
    await alicePage.getByRole('button', { name: `More actions for @${bob.username}` }).click();
    await alicePage.getByRole('menuitem', { name: `Mute @${bob.username}` }).click();
    await alicePage
      .getByRole('alertdialog', { name: `Mute @${bob.username}?` })
      .getByRole('button', { name: 'Mute', exact: true })
      .click();
    await expect(toasts(alicePage).getByText(`You muted @${bob.username}`)).toBeVisible();
    await expect(alicePage.getByText('Muted', { exact: true })).toBeVisible();
    await expect(postCard(alicePage, text)).toBeVisible();
    await snapAll(alicePage, 'safety-profile-muted');
    await alicePage.goto('/');
    await expect(alicePage.getByRole('list', { name: 'Posts' })).toBeVisible();
    await expect(postCard(alicePage, text)).toHaveCount(0);
    await alicePage.goto('/settings');
    const muted = alicePage.getByRole('region', { name: 'Muted users' });
    await expect(muted.getByText(`@${bob.username}`)).toBeVisible();
    await muted.getByRole('button', { name: `Unmute @${bob.username}` }).click();
    await expect(muted).toContainText("You haven't muted anyone.");
    await Promise.all([bobPage.context().close(), alicePage.context().close()]);
  });
});
