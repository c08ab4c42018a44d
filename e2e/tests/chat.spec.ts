/**
 * Direct messages in two real browser sessions: a conversation started from a profile's Message
 * button (`/chat?user={id}`), messages both ways without a reload, the typing indicator, the
 * unread badge on the Chat link that clears when the thread is opened, and "Seen".
 * Screenshots at 1280 and 390 px in both themes.
 */
import { expect, test } from '@playwright/test';
import { CONTEXT, registerViaUi, setThemeViaUi, snap, uniqueUser } from './helpers';

test('two members chat live: profile Message, typing, unread badge, Seen', async ({ browser }) => {
  test.setTimeout(90_000);
  const aliceContext = await browser.newContext(CONTEXT);
  const bobContext = await browser.newContext(CONTEXT);
  const alice = await aliceContext.newPage();
  const bob = await bobContext.newPage();
  try {
    const aliceUser = uniqueUser('alice');
    const bobUser = uniqueUser('bob');
    await registerViaUi(alice, aliceUser);
    await registerViaUi(bob, bobUser);

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
