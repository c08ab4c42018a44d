/**
 * Direct messages in two real browser sessions: a conversation started from a profile's Message
 * button (`/chat?user={id}`), messages both ways without a reload, the typing indicator, the
 * unread badge on the Chat link that clears when the thread is opened, and "Seen". Links,
 * @mentions and #tags in messages are links that can be read in both bubbles and both themes (a
 * message that is only a URL included); messages group by sender, "Seen" shows once; a
 * conversation starts from a member picked by name. Screenshots at 1280 and 390 px in both
 * themes; axe finds nothing serious or critical on the conversation and the picker.
 */
import { expect, test } from '@playwright/test';
import {
  answerTo,
  CONTEXT,
  postOverApi,
  registerOverApi,
  setThemeViaUi,
  shootAndAudit,
  signUp,
  snap,
  uniqueUser,
} from './helpers';

test('two members chat live: profile Message, typing, unread badge, Seen', async ({ browser }) => {
  test.setTimeout(90_000);
  const aliceContext = await browser.newContext(CONTEXT);
  const bobContext = await browser.newContext(CONTEXT);
  const alice = await aliceContext.newPage();
  const bob = await bobContext.newPage();
  try {
    const aliceUser = uniqueUser('alice');
    const bobUser = uniqueUser('bob');
    await signUp(alice, aliceUser);
    await signUp(bob, bobUser);

    // Bob starts the conversation from Alice's profile.
    await bob.goto(`/profile/${aliceUser.username}`);
    await bob.getByRole('button', { name: 'Message' }).click();
    await expect(bob).toHaveURL(/\/chat\?user=[0-9a-f-]{36}$/);
    const bobThread = bob.getByRole('region', { name: 'Thread' });
    await expect(bobThread.getByRole('heading', { name: aliceUser.displayName })).toBeVisible();
    await expect(bobThread.getByText(/No messages yet/)).toBeVisible();

    // Alice waits on the home page: the badge on her Chat link counts Bob's message.
    await alice.goto('/');
    const chatLink = alice
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Chat' });
    await expect(chatLink).toBeVisible();
    const box = bobThread.getByRole('textbox', { name: 'Message' });
    await box.fill('Hi Alice 👋');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    await box.press('Enter');
    await expect(bobThread.getByRole('list', { name: 'Messages' }).getByRole('listitem')).toHaveCount(1);
    await expect(bobThread.getByText('Sent')).toBeVisible();
    await expect(alice.getByTestId('chat-unread-badge').first()).toHaveText('1', { timeout: 3_000 });
    await expect(chatLink).toHaveAccessibleName('Chat');
    await expect(chatLink).toHaveAccessibleDescription('1 unread message');
    await snap(alice, 'chat-badge-1280-light');

    // Opening Chat opens the newest conversation, reads it and clears the badge; Bob sees "Seen".
    await chatLink.click();
    const aliceThread = alice.getByRole('region', { name: 'Thread' });
    await expect(aliceThread.getByText('second line')).toBeVisible();
    await expect(alice.getByTestId('chat-unread-badge')).toHaveCount(0);
    await expect(bobThread.getByText('Seen')).toBeVisible({ timeout: 3_000 });

    // Typing shows on the other side; the answer arrives without a reload.
    await aliceThread.getByRole('textbox', { name: 'Message' }).pressSequentially('Hello Bob');
    await expect(bob.getByText(`${aliceUser.displayName} is typing...`)).toBeVisible({ timeout: 3_000 });
    await snap(bob, 'chat-typing-1280-light');
    await aliceThread.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect(bobThread.getByText('Hello Bob')).toBeVisible({ timeout: 3_000 });
    await expect(bob.getByText(/is typing/)).toHaveCount(0, { timeout: 8_000 });
    // A send is blocked while another is in flight, so each waits for the one before.
    const bobBox = bobThread.getByRole('textbox', { name: 'Message' });
    for (let i = 0; i < 6; i++) {
      await expect(bobThread.getByText('Sending...')).toHaveCount(0);
      await bobBox.fill(`Message number ${i} with some more words`);
      await bobBox.press('Enter');
      await expect(bobBox).toHaveValue('');
      await expect(
        bobThread.getByRole('list', { name: 'Messages' }).getByText(`Message number ${i} with`),
      ).toBeVisible();
    }
    await expect(aliceThread.getByText('Message number 5 with')).toBeVisible({ timeout: 3_000 });
    await snap(alice, 'chat-1280-light');
    await setThemeViaUi(alice, 'dark');
    await snap(alice, 'chat-1280-dark');

    // A phone: the list first, then the thread with Back.
    await alice.setViewportSize({ width: 390, height: 844 });
    await alice.goto('/chat');
    const list = alice.getByRole('region', { name: 'Conversations' });
    await expect(list.getByText(bobUser.displayName)).toBeVisible();
    await snap(alice, 'chat-list-390-dark');
    await list.getByRole('button', { name: new RegExp(bobUser.displayName) }).click();
    await expect(aliceThread.getByText('Message number 5 with')).toBeVisible();
    await snap(alice, 'chat-thread-390-dark');
    await setThemeViaUi(alice, 'light');
    await snap(alice, 'chat-thread-390-light');
    await aliceThread.getByRole('button', { name: 'Back' }).click();
    await expect(list).toBeVisible();
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

test('links, mentions and tags in messages are readable in both bubbles; grouped by sender; Seen once', async ({
  browser,
}) => {
  const aliceContext = await browser.newContext(CONTEXT);
  const bobContext = await browser.newContext(CONTEXT);
  try {
    const alice = await registerOverApi(aliceContext, 'alice');
    const bob = await registerOverApi(bobContext, 'bob');
    const toBob = (content: string) =>
      postOverApi(aliceContext.request, '/api/messages', { receiverId: bob.id, content });
    const toAlice = (content: string) =>
      postOverApi(bobContext.request, '/api/messages', { receiverId: alice.id, content });
    await toAlice(`see https://example.org/cubes and ask @${alice.username} about #cubes`);
    await toBob('https://example.org/only-a-url');
    await toBob(`thanks @${bob.username}! #cubes is great, more at https://example.org/more`);

    // Bob reads what Alice wrote: she sees "Seen" once, under her newest message.
    const bobPage = await bobContext.newPage();
    // His Chat comes rendered with the thread: it is read once the app runs and tells the server.
    const read = answerTo(bobPage, 'messages.markRead');
    await bobPage.goto(`/chat?user=${alice.id}`);
    await expect(bobPage.getByRole('region', { name: 'Thread' }).getByText(/thanks/)).toBeVisible();
    await read;

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

    await shootAndAudit(page, 'chat-links', {
      prepare: async (width) => {
        if (width === '390' && !(await thread.isVisible())) await page.goto(`/chat?user=${bob.id}`);
        await expect(bubbles.nth(2).getByText('Seen')).toBeVisible();
      },
    });
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

test('a new conversation starts from a member picked by name in New message', async ({ browser }) => {
  const aliceContext = await browser.newContext(CONTEXT);
  const carolContext = await browser.newContext(CONTEXT);
  try {
    await registerOverApi(aliceContext, 'alice');
    const carol = await registerOverApi(carolContext, 'carol');
    const page = await aliceContext.newPage();
    const thread = page.getByRole('region', { name: 'Thread' });
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
    await shootAndAudit(page, 'chat-new-message', { prepare: openPicker });
    await openPicker();
    await page
      .getByRole('dialog', { name: 'New message' })
      .getByRole('button', { name: new RegExp(carol.displayName) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/chat\\?user=${carol.id}$`));
    await expect(thread.getByRole('heading', { name: carol.displayName })).toBeVisible();
  } finally {
    await aliceContext.close();
    await carolContext.close();
  }
});
