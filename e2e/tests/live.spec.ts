/**
 * Live updates over the WebSocket, in two real browser sessions: a like rings the author's bell
 * and a new post raises the 'New posts' pill, each well before the 30 s poll could.
 */
import { expect, test } from '@playwright/test';
import { CONTEXT, createPostViaUi, postCard, signUp, snap, uniqueUser } from './helpers';

test('a like rings the bell and a new post raises the pill, live', async ({ browser }) => {
  const authorContext = await browser.newContext(CONTEXT);
  const fanContext = await browser.newContext(CONTEXT);
  const author = await authorContext.newPage();
  const fan = await fanContext.newPage();
  try {
    const authorUser = uniqueUser('live');
    await signUp(author, authorUser);
    const text = `Live post ${Date.now()}`;
    await createPostViaUi(author, text);
    const bell = author.getByRole('button', { name: 'Notifications', exact: true });
    await expect(bell).toBeVisible();
    await expect(author.getByTestId('notifications-badge')).toHaveCount(0);

    await signUp(fan, uniqueUser('fan'));
    await fan.goto('/');
    await postCard(fan, text)
      .getByRole('button', { name: /^Like,/ })
      .click();

    // Pushed, not polled: the poll is every 30 s.
    await expect(author.getByTestId('notifications-badge')).toHaveText('1', { timeout: 3_000 });
    await expect(bell).toContainText('1');
    await snap(author, 'live-bell');

    const news = `Fresh from the fan ${Date.now()}`;
    await createPostViaUi(fan, news);
    const pill = author.getByRole('button', { name: 'New posts' });
    await expect(pill).toBeVisible({ timeout: 3_000 });
    await pill.click();
    await expect(postCard(author, news)).toBeVisible();
  } finally {
    await authorContext.close();
    await fanContext.close();
  }
});
