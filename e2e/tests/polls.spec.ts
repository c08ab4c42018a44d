/**
 * Polls, end to end: one member writes a post with a poll in the composer, a second votes and then
 * sees the results with their choice marked, and the first sees the count change live (the posts'
 * live changes over the socket, no reload). The poll before and after a vote is photographed in
 * both themes at 1280 and 390 px and checked with axe (nothing serious or critical).
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { appStarted, newMember, postCard, shootAndAudit, toasts } from './helpers.js';

/**
 * The feed laid out afresh at the window's size, the card in view: cards skipped off screen keep
 * the size they were last drawn at (`contain-intrinsic-size: auto`), and axe's run at 1280 px
 * draws them all, so after a resize to 390 px they widened the feed until drawn again.
 */
async function freshAt(page: Page, card: Locator): Promise<void> {
  await page.reload();
  // The poll's code loads with the first post that has one (post-card.tsx).
  await expect(card.getByTestId('poll')).toBeVisible();
  await card.scrollIntoViewIfNeeded();
}

/** Opens the composer's poll and writes three options, one of them `long`, for 1 hour. */
async function writePoll(page: Page, long: string): Promise<void> {
  await page.getByRole('button', { name: 'Add poll' }).click();
  const editor = page.getByRole('group', { name: 'Poll' });
  await editor.getByRole('textbox', { name: 'Option 1' }).fill('Red');
  await editor.getByRole('textbox', { name: 'Option 2' }).fill(long);
  await editor.getByRole('button', { name: 'Add option' }).click();
  await editor.getByRole('textbox', { name: 'Option 3' }).fill('Blue 🧊');
  await editor.getByLabel('Duration').selectOption({ label: '1 hour' });
}

test.describe('polls', () => {
  test('a member writes a poll, another votes and sees the results, the author sees the count live', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const author = await newMember(browser, 'pollster');
    const voter = await newMember(browser, 'voter');
    const text = `Which cube, ${author.user.username}?`;
    const long = `A very long option that has to wrap ${'onwards '.repeat(4)}`.trim().slice(0, 50);

    // The composer: Add poll, three options (one added), a duration, Post.
    const page = author.page;
    await page.goto('/');
    const field = page.getByRole('textbox', { name: 'Write a post' });
    await expect(field).toBeEditable();
    await field.fill(text);
    await writePoll(page, long);
    // Laid out afresh at each size (see freshAt); the text is a draft and stays, the poll is written again.
    await shootAndAudit(page, 'polls-composer', {
      prepare: async () => {
        await page.reload();
        await expect(field).toHaveValue(text);
        await writePoll(page, long);
      },
      close: async () => {},
    });
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(toasts(page).getByText('Post created successfully!')).toBeVisible();
    const authorCard = postCard(page, text);
    // The author sees the results at once: no votes yet.
    await expect(authorCard.getByRole('list', { name: 'Poll results' })).toBeVisible();
    await expect(authorCard.getByText(/^0 votes · ends in (1 hour|\d+ minutes)/)).toBeVisible();

    // The voter: a labelled choice, Results hidden until they vote.
    const card = postCard(voter.page, text);
    await voter.page.goto('/');
    await appStarted(voter.page);
    const choice = card.getByRole('group', { name: 'Poll: choose one' });
    await expect(choice).toBeVisible();
    await expect(card.getByText(/Results show once you vote/)).toBeVisible();
    await expect(card.getByRole('list', { name: 'Poll results' })).toHaveCount(0);
    await shootAndAudit(voter.page, 'polls-before-vote', {
      prepare: () => freshAt(voter.page, card),
      close: async () => {},
    });
    // By keyboard: focus the first option, arrow to the second, Vote.
    await choice.getByRole('radio', { name: 'Red' }).focus();
    await voter.page.keyboard.press('ArrowDown');
    await expect(choice.getByRole('radio', { name: long })).toBeChecked();
    await card.getByRole('button', { name: 'Vote' }).click();
    const results = card.getByRole('list', { name: 'Poll results' });
    await expect(results).toBeVisible();
    await expect(results.getByRole('listitem').nth(1)).toContainText('your choice');
    await expect(results.getByRole('listitem').nth(1)).toContainText('100%');
    await expect(card.getByText(/^1 vote · ends in (1 hour|\d+ minutes)/)).toBeVisible();
    await shootAndAudit(voter.page, 'polls-results', {
      prepare: () => freshAt(voter.page, card),
      close: async () => {},
    });

    // The author's open feed hears of the vote: the count changes without a reload.
    await expect(authorCard.getByText(/^1 vote · ends in (1 hour|\d+ minutes)/)).toBeVisible({
      timeout: 15_000,
    });
    await expect(
      authorCard.getByRole('list', { name: 'Poll results' }).getByRole('listitem').nth(1),
    ).toContainText('100%');

    // A second vote of the same member is refused (409) over REST.
    const postId = await card.getByRole('link', { name: /open the post/ }).getAttribute('href');
    const again = await voter.context.request.post(`/api${postId}/poll/votes`, { data: { choices: [0] } });
    expect(again.status()).toBe(409);
    expect(await again.json()).toEqual({
      message: 'You already voted in this poll',
      code: 'CONFLICT',
      reason: 'ALREADY_VOTED',
    });

    await author.context.close();
    await voter.context.close();
  });
});
