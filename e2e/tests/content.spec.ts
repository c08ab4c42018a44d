/**
 * Your content and your feed: edit and delete a post (another member's open feed follows live),
 * delete a comment, and switch between the Following and Everyone feeds (remembered). The
 * Following feed follows a follow at once, in this tab and another; the Edit post dialog offers @mentions. Those screens are photographed at 1280
 * and 390 px in both themes and checked with axe (shootAndAudit).
 */
import { type Browser, expect, test } from '@playwright/test';
import {
  createPostViaUi,
  logoutViaUi,
  newMember,
  newPage,
  postCard,
  shootAndAudit,
  signUp,
  snap,
  snapAll,
  toasts,
  uniqueUser,
  widthsFor,
} from './helpers.js';

/** A post of the feed as the REST row lists it. */
interface FeedPost {
  id: string;
  username: string;
  userId: string;
  content: string;
}

test.describe('your content', () => {
  test('edit and delete a post: confirmed, shown as edited with its history, and gone live elsewhere', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const bob = uniqueUser('bob');
    const alice = uniqueUser('alice');
    const bobPage = await newPage(browser);
    const alicePage = await newPage(browser);
    await signUp(bobPage, bob);
    const original = `A post by ${bob.username} with a typo: cubse`;
    await createPostViaUi(bobPage, original);
    await signUp(alicePage, alice);
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
    await snap(bobPage, 'content-edit-dialog-light-1280');
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
    await Promise.all([bobPage.context().close(), alicePage.context().close()]);
  });

  test('switch between Following and Everyone; the choice is remembered', async ({ browser }) => {
    test.setTimeout(150_000);
    const dave = uniqueUser('dave');
    const erin = uniqueUser('erin');
    const carol = uniqueUser('carol');
    const page = await newPage(browser);
    await signUp(page, dave);
    const davePost = `Dave ${dave.username} says hello to his followers`;
    await createPostViaUi(page, davePost);
    await logoutViaUi(page);
    await signUp(page, erin);
    const erinPost = `Erin ${erin.username} posts for everyone`;
    await createPostViaUi(page, erinPost);
    await logoutViaUi(page);

    // Logged out: Everyone only, no tabs.
    await page.goto('/');
    await expect(postCard(page, erinPost)).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(0);

    await signUp(page, carol);
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
    await page.context().close();
  });
});

test.describe('your feed', () => {
  test('the Following feed shows a follow and an unfollow at once, in this tab and another', async ({
    browser,
  }) => {
    // Two tabs, a follow and an unfollow, and four pictures with axe: more than the default 30 s
    // on a busy machine.
    test.setTimeout(60_000);
    const { context, page } = await newMember(browser, 'flw');
    const feed = (await (await page.request.get('/api/posts/feed?limit=5')).json()) as FeedPost[];
    const author = feed[0]!;
    await page.getByRole('tab', { name: 'Following' }).click();
    const empty = page.getByText('Posts by people you follow show up here.');
    await expect(empty).toBeVisible();

    // Another tab of the same member follows the author.
    const other = await context.newPage();
    await other.goto(`/profile/${author.username}`);
    await other.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(other.getByRole('button', { name: 'Unfollow' })).toBeVisible();
    // The first tab's Following feed loads again on the event: well before its 30 s poll.
    const posts = page.getByRole('list', { name: 'Posts' });
    await expect(posts.getByRole('article').first()).toBeVisible({ timeout: 15_000 });
    await expect(empty).toHaveCount(0);
    // Switching tabs keeps it.
    await page.getByRole('tab', { name: 'Everyone' }).click();
    await page.getByRole('tab', { name: 'Following' }).click();
    await expect(posts.getByRole('article').first()).toBeVisible();
    await shootAndAudit(page, 'feed-following-after-follow', {
      prepare: async () => {
        await expect(posts.getByRole('article').first()).toBeVisible();
        // The feed, not the hero above it, in the picture.
        await page
          .getByRole('tablist', { name: 'Feeds' })
          .evaluate((tabs) => tabs.scrollIntoView({ block: 'center' }));
      },
    });

    // This tab unfollows on the profile; back home, the Following feed is empty again.
    await page.goto(`/profile/${author.username}`);
    await page.getByRole('button', { name: 'Unfollow' }).click();
    await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Home' }).first().click();
    await expect(page.getByText('Posts by people you follow show up here.')).toBeVisible({ timeout: 15_000 });
    await context.close();
  });

  /** A member with a post of their own, and a way to open its Edit dialog with an @ list showing. */
  async function editWithMention(browser: Browser) {
    const { context, page } = await newMember(browser, 'edm');
    const feed = (await (await page.request.get('/api/posts/feed?limit=5')).json()) as FeedPost[];
    const someone = feed[0]!.username;
    const text = `Edit me ${Date.now().toString(36)}`;
    await createPostViaUi(page, text);
    const card = postCard(page, text);
    const dialog = page.getByRole('dialog', { name: 'Edit post' });
    const list = page.getByRole('listbox', { name: 'Members to mention' });
    const openDialog = async () => {
      if (await dialog.isVisible()) return;
      await card.getByRole('button', { name: 'Post actions' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await dialog.getByLabel('Post text').fill(`${text} with @${someone.slice(0, 3)}`);
      await expect(list.getByRole('option').first()).toBeVisible();
    };
    return { context, page, someone, text, card, dialog, list, openDialog };
  }

  test('the Edit post dialog offers @mentions as the composer does', async ({ browser }) => {
    const { context, someone, text, card, dialog, list, openDialog } = await editWithMention(browser);
    await openDialog();
    // Escape closes the list, not the dialog; typing on offers again; Enter chooses.
    const box = dialog.getByLabel('Post text');
    await box.press('Escape');
    await expect(list).toBeHidden();
    await expect(dialog).toBeVisible();
    await box.fill(`${text} with @${someone}`);
    await expect(list.getByRole('option', { name: new RegExp(`@${someone}`) })).toBeVisible();
    await box.press('Enter');
    await expect(box).toHaveValue(`${text} with @${someone} `);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByRole('link', { name: `@${someone}` })).toHaveAttribute(
      'href',
      `/profile/${someone}`,
    );
    await context.close();
  });

  // One theme per test: each way opens the dialog again and types.
  for (const theme of ['light', 'dark'] as const) {
    test(`the Edit post dialog's @ list in the ${theme} theme at both widths`, async ({ browser }) => {
      const { context, page, dialog, openDialog } = await editWithMention(browser);
      await shootAndAudit(page, 'edit-post-mention', {
        prepare: openDialog,
        themes: [theme],
        widths: widthsFor(theme),
        close: async () => {
          // The first Escape closes the @ list, the second the dialog (a modal dialog hides the
          // header, whose theme menu comes first in each way).
          await page.keyboard.press('Escape');
          await page.keyboard.press('Escape');
          await expect(dialog).toBeHidden();
        },
      });
      await context.close();
    });
  }
});
