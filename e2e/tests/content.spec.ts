/**
 * Your content and your feed: edit and delete a post (another member's open feed follows live),
 * delete a comment, and switch between the Following and Everyone feeds (remembered).
 */
import { expect, test } from '@playwright/test';
import {
  createPostViaUi,
  logoutViaUi,
  newPage,
  postCard,
  registerViaUi,
  snapAll,
  toasts,
  uniqueUser,
} from './helpers.js';

test.describe('your content', () => {
  test('edit and delete a post: confirmed, shown as edited with its history, and gone live elsewhere', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const bob = uniqueUser('bob');
    const alice = uniqueUser('alice');
    const bobPage = await newPage(browser);
    const alicePage = await newPage(browser);
    await registerViaUi(bobPage, bob);
    const original = `A post by ${bob.username} with a typo: cubse`;
    await createPostViaUi(bobPage, original);
    await registerViaUi(alicePage, alice);
    await expect(postCard(alicePage, original)).toBeVisible();

    // Alice comments; Bob, the post's author, deletes the comment after confirming.
    const aliceCard = postCard(alicePage, original);
    await aliceCard.getByRole('button', { name: 'Comments' }).click();
    await aliceCard.getByLabel('Write a comment').fill('First!');
    await aliceCard.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(aliceCard.getByRole('region', { name: 'Comments' }).getByRole('listitem')).toHaveCount(1);
    await bobPage.reload();
    const bobCard = postCard(bobPage, original);
    await expect(bobCard.getByRole('button', { name: 'Comments' })).toContainText('1');
    await bobCard.getByRole('button', { name: 'Comments' }).click();
    await bobCard.getByRole('button', { name: `Delete comment by ${alice.displayName}` }).click();
    const dropComment = bobPage.getByRole('alertdialog', { name: 'Delete this comment?' });
    await dropComment.getByRole('button', { name: 'Delete' }).click();
    await expect(bobCard.getByText('No comments yet.')).toBeVisible();
    await expect(bobCard.getByRole('button', { name: 'Comments' })).toContainText('0');
    // Alice's open thread follows.
    await expect(aliceCard.getByText('No comments yet.')).toBeVisible();
    await bobCard.getByRole('button', { name: 'Comments' }).click();

    // Bob edits the post in a dialog.
    await snapAll(
      bobPage,
      'content-post-menu',
      async () => {
        await postCard(bobPage, original).getByRole('button', { name: 'Post actions' }).click();
        await expect(bobPage.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
      },
      false,
    );
    await bobCard.getByRole('button', { name: 'Post actions' }).click();
    await bobPage.getByRole('menuitem', { name: 'Edit' }).click();
    const editDialog = bobPage.getByRole('dialog', { name: 'Edit post' });
    await expect(editDialog.getByLabel('Post text')).toHaveValue(original);
    await expect(editDialog.getByRole('button', { name: 'Save' })).toBeDisabled();
    const fixed = `A post by ${bob.username} without a typo: cubes`;
    await editDialog.getByLabel('Post text').fill(fixed);
    await bobPage.screenshot({ path: 'test-output/screens/content-edit-dialog-light-1280.png' });
    await editDialog.getByRole('button', { name: 'Save' }).click();
    await expect(toasts(bobPage).getByText('Post updated')).toBeVisible();
    const edited = postCard(bobPage, fixed);
    await expect(edited.getByRole('button', { name: 'Edited: show earlier versions' })).toBeVisible();

    // Alice's open feed shows the edit without a reload; the history has both versions.
    const aliceEdited = postCard(alicePage, fixed);
    await expect(aliceEdited).toBeVisible();
    await aliceEdited.getByRole('button', { name: 'Edited: show earlier versions' }).click();
    const history = alicePage.getByRole('dialog', { name: 'Edit history' });
    const versions = history.getByRole('list', { name: 'Versions' }).getByRole('listitem');
    await expect(versions).toHaveCount(2);
    await expect(versions.nth(0)).toContainText(fixed);
    await expect(versions.nth(0)).toContainText('Current');
    await expect(versions.nth(1)).toContainText(original);
    await expect(versions.nth(1)).toContainText('Original');
    await alicePage.keyboard.press('Escape');
    await snapAll(
      alicePage,
      'content-edit-history',
      async () => {
        await postCard(alicePage, fixed)
          .getByRole('button', { name: 'Edited: show earlier versions' })
          .click();
        await expect(
          alicePage.getByRole('dialog', { name: 'Edit history' }).getByRole('listitem'),
        ).toHaveCount(2);
      },
      false,
    );

    // Bob deletes it: a confirmation first; Cancel keeps it.
    await edited.getByRole('button', { name: 'Post actions' }).click();
    await bobPage.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = bobPage.getByRole('alertdialog', { name: 'Delete this post?' });
    await expect(confirm).toContainText('Its likes and comments are deleted with it.');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(edited).toBeVisible();
    await snapAll(
      bobPage,
      'content-delete-confirm',
      async () => {
        await postCard(bobPage, fixed).getByRole('button', { name: 'Post actions' }).click();
        await bobPage.getByRole('menuitem', { name: 'Delete' }).click();
        await expect(bobPage.getByRole('alertdialog', { name: 'Delete this post?' })).toBeVisible();
      },
      false,
    );
    await edited.getByRole('button', { name: 'Post actions' }).click();
    await bobPage.getByRole('menuitem', { name: 'Delete' }).click();
    await bobPage
      .getByRole('alertdialog', { name: 'Delete this post?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(toasts(bobPage).getByText('Post deleted')).toBeVisible();
    await expect(postCard(bobPage, fixed)).toHaveCount(0);

    // Alice's open feed drops it live; after a reload it is gone for both.
    await expect(postCard(alicePage, fixed)).toHaveCount(0);
    await alicePage.reload();
    await expect(alicePage.getByRole('list', { name: 'Posts' })).toBeVisible();
    await expect(postCard(alicePage, fixed)).toHaveCount(0);
    await bobPage.goto(`/profile/${bob.username}`);
    await expect(bobPage.getByRole('list', { name: 'Profile stats' })).toContainText('0 posts');
  });

  test('switch between Following and Everyone; the choice is remembered', async ({ browser }) => {
    test.setTimeout(150_000);
    const dave = uniqueUser('dave');
    const erin = uniqueUser('erin');
    const carol = uniqueUser('carol');
    const page = await newPage(browser);
    await registerViaUi(page, dave);
    const davePost = `Dave ${dave.username} says hello to his followers`;
    await createPostViaUi(page, davePost);
    await logoutViaUi(page);
    await registerViaUi(page, erin);
    const erinPost = `Erin ${erin.username} posts for everyone`;
    await createPostViaUi(page, erinPost);
    await logoutViaUi(page);

    // Logged out: Everyone only, no tabs.
    await page.goto('/');
    await expect(postCard(page, erinPost)).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(0);

    await registerViaUi(page, carol);
    await page.goto(`/profile/${dave.username}`);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Unfollow' })).toBeVisible();

    await page.goto('/');
    const feeds = page.getByRole('tablist', { name: 'Feeds' });
    await expect(feeds.getByRole('tab', { name: 'Everyone' })).toHaveAttribute('aria-selected', 'true');
    await expect(postCard(page, erinPost)).toBeVisible();
    await expect(postCard(page, davePost)).toBeVisible();

    await feeds.getByRole('tab', { name: 'Following' }).click();
    await expect(feeds.getByRole('tab', { name: 'Following' })).toHaveAttribute('aria-selected', 'true');
    await expect(postCard(page, davePost)).toBeVisible();
    await expect(postCard(page, erinPost)).toHaveCount(0);
    // Her own posts are in it too.
    const own = `Carol ${carol.username} joins the Following feed`;
    await createPostViaUi(page, own);
    await expect(postCard(page, own)).toBeVisible();
    await expect(postCard(page, erinPost)).toHaveCount(0);
    await snapAll(page, 'content-feed-following');

    // Remembered after a reload.
    await page.reload();
    await expect(
      page.getByRole('tablist', { name: 'Feeds' }).getByRole('tab', { name: 'Following' }),
    ).toHaveAttribute('aria-selected', 'true');
    await expect(postCard(page, davePost)).toBeVisible();
    await expect(postCard(page, erinPost)).toHaveCount(0);

    // Back to Everyone.
    await page.getByRole('tab', { name: 'Everyone' }).click();
    await expect(postCard(page, erinPost)).toBeVisible();
    await snapAll(page, 'content-feed-everyone');

    // Unfollowing empties Following of Dave's posts; the empty state says how to fill it.
    await page.goto(`/profile/${dave.username}`);
    await page.getByRole('button', { name: 'Unfollow' }).click();
    await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
    await page.goto('/');
    await page.getByRole('tab', { name: 'Following' }).click();
    await expect(postCard(page, own)).toBeVisible();
    await expect(postCard(page, davePost)).toHaveCount(0);
  });
});
