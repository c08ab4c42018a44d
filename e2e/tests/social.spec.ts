import { expect, type Page, test } from '@playwright/test';
import {
  answerTo,
  appStarted,
  createPostViaUi,
  MOBILE,
  newPage,
  postCard,
  setThemeViaUi,
  signUp,
  snap,
  toasts,
  uniqueUser,
} from './helpers.js';

function bell(page: Page) {
  return page.getByRole('button', { name: 'Notifications', exact: true });
}

test.describe('social: feed, likes, comments, notifications, follows', () => {
  test('two members post, like, comment, get notified and follow', async ({ browser }) => {
    test.setTimeout(120_000);
    const bob = uniqueUser('bob');
    const alice = uniqueUser('alice');
    const bobPage = await newPage(browser);
    const alicePage = await newPage(browser);
    // Alice's clock is fake (it still runs) so the 30 s feed poll can be fast-forwarded.
    await alicePage.clock.install();

    // Bob joins and posts; the post is at the top of his feed.
    await signUp(bobPage, bob);
    const first = `Hello from ${bob.username}! Cubes are great: https://example.com/cubes`;
    await createPostViaUi(bobPage, first);
    const bobCard = postCard(bobPage, first);
    await expect(bobCard.getByRole('link', { name: bob.displayName })).toHaveAttribute(
      'href',
      `/profile/${bob.username}`,
    );
    await expect(bobCard.getByRole('link', { name: 'https://example.com/cubes' })).toHaveAttribute(
      'rel',
      'noopener noreferrer nofollow',
    );
    await expect(bobCard.locator('time')).toHaveText('just now');

    // Alice joins in her own browser and sees Bob's post in her feed.
    await signUp(alicePage, alice);
    const card = postCard(alicePage, first);
    await expect(card).toBeVisible();
    await expect(card.getByRole('button', { name: /^Like,/ })).toHaveAttribute('aria-pressed', 'false');

    // She likes it: pressed and counted at once, and still so after a reload (once the server has
    // it: the card turns before the answer, and a reload before would cancel the request).
    const liked = answerTo(alicePage, 'posts.like');
    await card.getByRole('button', { name: /^Like,/ }).click();
    const unlike = card.getByRole('button', { name: /^Unlike,/ });
    await expect(unlike).toHaveAttribute('aria-pressed', 'true');
    await expect(unlike).toContainText('1');
    await liked;
    await alicePage.reload();
    await expect(postCard(alicePage, first).getByRole('button', { name: /^Unlike,/ })).toContainText('1');

    // She comments.
    const aliceCard = postCard(alicePage, first);
    await aliceCard.getByRole('button', { name: 'Comments' }).click();
    await expect(aliceCard.getByText('No comments yet.')).toBeVisible();
    await aliceCard.getByLabel('Write a comment').fill('Lovely cubes, Bob!');
    await aliceCard.getByRole('button', { name: 'Comment', exact: true }).click();
    const thread = aliceCard.getByRole('region', { name: 'Comments' });
    await expect(thread.getByRole('listitem')).toHaveCount(1);
    await expect(thread.getByRole('listitem').first()).toContainText('Lovely cubes, Bob!');
    await expect(thread.getByRole('listitem').first()).toContainText(alice.displayName);
    await expect(aliceCard.getByRole('button', { name: 'Comments' })).toContainText('1');
    await snap(alicePage, 'post-comments');

    // Bob's bell counts both; the list shows them; 'Mark all as read' clears the badge.
    await bobPage.reload();
    await expect(bell(bobPage)).toContainText('2');
    await bell(bobPage).click();
    const list = bobPage.getByRole('dialog', { name: 'Notifications list' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByRole('listitem').filter({ hasText: 'liked your post' })).toContainText(
      alice.username,
    );
    await expect(list.getByRole('listitem').filter({ hasText: 'commented on your post' })).toContainText(
      alice.username,
    );
    await expect(list.getByText('Unread')).toHaveCount(2);
    await snap(bobPage, 'notifications-open');
    await list.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(toasts(bobPage).getByText('All notifications marked as read')).toBeVisible();
    await expect(bobPage.getByTestId('notifications-badge')).toHaveCount(0);
    await expect(list.getByText('Unread')).toHaveCount(0);

    // A like notification leads to the post's own page.
    await list.getByRole('listitem').filter({ hasText: 'liked your post' }).getByRole('button').click();
    await expect(bobPage).toHaveURL(/\/posts\/[0-9a-f-]+$/);
    await expect(list).toBeHidden();
    await expect(postCard(bobPage, first)).toBeInViewport();

    // Alice follows Bob on his profile: the count moves at once and stays after a reload.
    await alicePage.goto(`/profile/${bob.username}`);
    await expect(alicePage.getByRole('heading', { name: bob.displayName })).toBeVisible();
    const stats = alicePage.getByRole('list', { name: 'Profile stats' });
    await expect(stats).toContainText('0 followers');
    await expect(stats).toContainText('1 post');
    await expect(postCard(alicePage, first)).toBeVisible();
    const followed = answerTo(alicePage, 'follows.follow');
    await alicePage.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(alicePage.getByRole('button', { name: 'Unfollow' })).toBeVisible();
    await expect(stats).toContainText('1 follower');
    // The server renders Alice's page afresh on the reload: once it has the follow.
    await followed;
    await alicePage.reload();
    await expect(alicePage.getByRole('button', { name: 'Unfollow' })).toBeVisible();
    await expect(alicePage.getByRole('list', { name: 'Profile stats' })).toContainText('1 follower');
    await snap(alicePage, 'profile-other');
    await alicePage.getByRole('tab', { name: 'Media' }).click();
    await expect(alicePage.getByText('No media yet')).toBeVisible();
    await alicePage.getByRole('tab', { name: 'Favorites' }).click();
    await expect(alicePage.getByText('No favorites yet')).toBeVisible();
    await alicePage.getByRole('button', { name: 'Message' }).click();
    await expect(alicePage).toHaveURL(/\/chat\?user=[0-9a-f-]{36}$/);
    await expect(
      alicePage.getByRole('region', { name: 'Thread' }).getByRole('heading', { name: bob.displayName }),
    ).toBeVisible();

    // Bob sees his follower after a reload, a follow notification, and 'Edit profile' on his own page.
    await bobPage.goto('/profile');
    await expect(bobPage.getByRole('list', { name: 'Profile stats' })).toContainText('1 follower');
    await expect(bobPage.getByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/settings');
    await expect(bobPage.getByRole('button', { name: 'Follow', exact: true })).toHaveCount(0);
    await expect(bell(bobPage)).toContainText('1');
    await snap(bobPage, 'profile-own');

    // Alice waits on home; Bob posts again; her 30 s poll offers 'New posts' instead of jumping.
    await alicePage.goto('/');
    await expect(postCard(alicePage, first)).toBeVisible();
    await bobPage.goto('/');
    const second = `Second post from ${bob.username}`;
    await createPostViaUi(bobPage, second);
    await expect(postCard(alicePage, second)).toHaveCount(0);
    await alicePage.clock.fastForward('00:31');
    const pill = alicePage.getByRole('button', { name: 'New posts' });
    await expect(pill).toBeVisible();
    await snap(alicePage, 'feed-new-posts-pill');
    await pill.click();
    await expect(alicePage.getByRole('list', { name: 'Posts' }).getByRole('article').first()).toContainText(
      second,
    );
    await expect(pill).toBeHidden();

    // Screens: Bob's home in both themes, desktop and mobile.
    await bobPage.reload();
    await expect(postCard(bobPage, second)).toBeVisible();
    await snap(bobPage, 'social-home-light-1280');
    await setThemeViaUi(bobPage, 'dark');
    await snap(bobPage, 'social-home-dark-1280');
    await bobPage.setViewportSize(MOBILE);
    await snap(bobPage, 'social-home-dark-390');
    await setThemeViaUi(bobPage, 'light');
    await snap(bobPage, 'social-home-light-390');
    // On a phone the bell opens the notifications page (issue #46).
    await bobPage.getByRole('link', { name: 'Notifications', exact: true }).click();
    await expect(bobPage.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    await snap(bobPage, 'notifications-open-390');
    await bobPage.goto(`/profile/${alice.username}`);
    await expect(bobPage.getByRole('heading', { name: alice.displayName })).toBeVisible();
    await expect(bobPage.getByText('Member of Cubes AI')).toBeVisible();
    await snap(bobPage, 'profile-390');

    await bobPage.context().close();
    await alicePage.context().close();
  });

  test('the composer: Media, AI Art Generator dialog, login rules for visitors', async ({ browser }) => {
    const poster = uniqueUser('poster');
    const author = await newPage(browser);
    await signUp(author, poster);
    const text = `A post for visitors by ${poster.username}`;
    await createPostViaUi(author, text);
    await author.context().close();

    const page = await newPage(browser);
    await page.goto('/');
    const card = postCard(page, text);
    await expect(card).toBeVisible();
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toHaveCount(0);

    // Liking needs an account: a toast, nothing sent, nothing changed.
    await appStarted(page);
    const likes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('posts.like')) likes.push(request.url());
    });
    await card.getByRole('button', { name: /^Like,/ }).click();
    await expect(toasts(page).getByText('Please login to like posts')).toBeVisible();
    await expect(toasts(page).getByText('You need to be logged in to interact with posts')).toBeVisible();
    await expect(card.getByRole('button', { name: /^Like,/ })).toHaveAttribute('aria-pressed', 'false');
    await expect(card.getByRole('button', { name: /^Like,/ })).toContainText('0');
    expect(likes).toHaveLength(0);

    // Posting needs an account too; Post stays disabled while the text is blank.
    const post = page.getByRole('button', { name: 'Post', exact: true });
    await expect(post).toBeDisabled();
    await page.getByPlaceholder("What's on your mind?").fill('I am only visiting');
    await post.click();
    await expect(toasts(page).getByText('Please login to post')).toBeVisible();
    await expect(page.getByPlaceholder("What's on your mind?")).toHaveValue('I am only visiting');

    // Media (image upload) needs an account as well: the login toast, and no upload dialog.
    await page.getByRole('button', { name: 'Media' }).click();
    await expect(toasts(page).getByText('Please login to post').first()).toBeVisible();
    await expect(page.locator('.uppy-Dashboard--modal')).toHaveCount(0);

    // The AI Art Generator: a simulated 2 s generation that sends nothing, then closes.
    await page.getByRole('button', { name: 'AI Generate' }).click();
    const dialog = page.getByRole('dialog', { name: 'AI Art Generator' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Create stunning AI-generated images with different styles')).toBeVisible();
    const generate = dialog.getByRole('button', { name: 'Generate' });
    await expect(generate).toBeDisabled();
    await expect(dialog.getByRole('combobox', { name: 'Style' })).toHaveText('Pixel Art');
    await dialog.getByRole('combobox', { name: 'Style' }).click();
    await expect(page.getByRole('option')).toHaveText([
      'Pixel Art',
      'Realistic',
      'Abstract',
      'Cartoon',
      '3D Render',
    ]);
    await page.getByRole('option', { name: '3D Render' }).click();
    await expect(dialog.getByRole('combobox', { name: 'Style' })).toHaveText('3D Render');
    await dialog.getByPlaceholder('Describe what you want to create...').fill('A neon cube city at dusk');
    await snap(page, 'generator-dialog');
    const sent: string[] = [];
    page.on('request', (request) => sent.push(request.url()));
    await generate.click();
    await expect(dialog.getByRole('button', { name: 'Generating...' })).toBeDisabled();
    await expect(dialog).toBeHidden({ timeout: 5000 });
    expect(sent.filter((url) => !url.includes('/trpc/posts.feed') && !url.startsWith('data:'))).toEqual([]);

    // Comments need an account as well.
    await card.getByRole('button', { name: 'Comments' }).click();
    await card.getByLabel('Write a comment').fill('hi');
    await card.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(toasts(page).getByText('Please login to comment')).toBeVisible();

    // An unknown profile says so.
    await page.goto('/profile/no_such_member_here');
    await expect(page.getByRole('heading', { name: 'User not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/');
    await page.context().close();
  });
});
