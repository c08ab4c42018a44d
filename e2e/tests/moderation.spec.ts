/**
 * Reports and moderators: a member reports a post with a reason; the operator makes another
 * member a moderator with `npm run admin -- make-moderator`; the moderator sees the report with
 * the post in context on /moderation, removes the post with a reason, and the audit log shows it;
 * the post is gone for everyone and its author is told why. To members /moderation is the 404 page.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { server } from '../servers';
import {
  CONTEXT,
  createPostViaUi,
  loginViaUi,
  postCard,
  setThemeViaUi,
  signUp,
  snap,
  snapAll,
  toasts,
  uniqueUser,
} from './helpers';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** The e2e server's environment as the operator's shell would have it: its DATA_DIR, nothing else set. */
function operatorEnv(): NodeJS.ProcessEnv {
  const { PG_DATA_DIR: _pg, DATABASE_URL: _url, ...env } = process.env;
  return { ...env, DATA_DIR: server.dataPath };
}

/** The documented operator command, against this worker's server's database (servers.ts). */
async function makeModerator(username: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'admin', '--', 'make-moderator', username],
    {
      cwd: root,
      env: operatorEnv(),
    },
  );
  return stdout;
}

test('a member reports a post, and a moderator removes it', async ({ browser }) => {
  // A ceiling: 50 s alone on one worker; once 2.1 min in a fresh-clone CI run beside a second
  // server pair and browser on the same two cores.
  test.setTimeout(180_000);
  const contexts = await Promise.all([0, 1, 2].map(() => browser.newContext(CONTEXT)));
  const [author, reporter, moderator] = await Promise.all(contexts.map((c) => c.newPage()));
  const authorUser = uniqueUser('author');
  const reporterUser = uniqueUser('reporter');
  const moderatorUser = uniqueUser('mod');
  await signUp(author!, authorUser);
  await signUp(reporter!, reporterUser);
  await signUp(moderator!, moderatorUser);

  const text = `Buy cheap cubes at example dot com ${Date.now()}`;
  await createPostViaUi(author!, text);

  // The member reports it, with a reason. (The theme toggle sits behind the modal dialog: the
  // theme is set before it opens.)
  await reporter!.goto('/');
  await setThemeViaUi(reporter!, 'light');
  const card = postCard(reporter!, text);
  await card.getByRole('button', { name: 'Report post' }).click();
  const dialog = reporter!.getByRole('dialog', { name: 'Report this post' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText('Say why you are reporting this')).toBeVisible();
  await dialog.getByLabel('Why are you reporting this?').fill('Spam: it advertises a shop 🛒');
  await snap(reporter!, 'report-dialog-1280-light');
  await reporter!.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await setThemeViaUi(reporter!, 'dark');
  await reporter!.setViewportSize({ width: 390, height: 844 });
  await card.getByRole('button', { name: 'Report post' }).click();
  await dialog.getByLabel('Why are you reporting this?').fill('Spam: it advertises a shop 🛒');
  await snap(reporter!, 'report-dialog-390-dark');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(toasts(reporter!).getByText('Report sent')).toBeVisible();
  await expect(dialog).toBeHidden();
  // A repeat is refused kindly.
  await card.getByRole('button', { name: 'Report post' }).click();
  await reporter!.getByLabel('Why are you reporting this?').fill('again');
  await reporter!.getByRole('button', { name: 'Send report' }).click();
  await expect(toasts(reporter!).getByText('Already reported', { exact: true })).toBeVisible();

  // Members get the 404 page.
  await reporter!.goto('/moderation');
  await expect(reporter!.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  // The operator makes the third member a moderator.
  expect(await makeModerator(moderatorUser.username)).toContain(
    `${moderatorUser.username} is now a moderator.`,
  );
  // The role came from the operator: after a reload the account menu shows the way in.
  await moderator!.goto('/');
  const openMenu = async () => {
    await moderator!.getByRole('button', { name: 'Account menu' }).click();
    await expect(moderator!.getByRole('menuitem', { name: 'Moderation' })).toBeVisible();
  };
  await snapAll(moderator!, 'moderator-menu', openMenu);
  await openMenu();
  await moderator!.getByRole('menuitem', { name: 'Moderation' }).click();
  await expect(moderator!).toHaveURL(/\/moderation$/);
  await expect(moderator!.getByRole('heading', { name: 'Moderation', level: 1 })).toBeVisible();
  const report = moderator!
    .locator('div')
    .filter({ has: moderator!.getByRole('heading', { name: `Post by @${authorUser.username}` }) })
    .last();
  await expect(report).toContainText('Spam: it advertises a shop 🛒');
  await expect(report.getByRole('list', { name: 'Reported item in context' })).toContainText(text);
  await setThemeViaUi(moderator!, 'light');
  await snap(moderator!, 'moderation-1280-light');
  await setThemeViaUi(moderator!, 'dark');
  await snap(moderator!, 'moderation-1280-dark');
  await moderator!.setViewportSize({ width: 390, height: 844 });
  await snap(moderator!, 'moderation-390-dark');
  await setThemeViaUi(moderator!, 'light');
  await snap(moderator!, 'moderation-390-light');
  await moderator!.setViewportSize({ width: 1280, height: 800 });

  await report.getByRole('button', { name: 'Remove post' }).click();
  const remove = moderator!.getByRole('dialog', { name: 'Remove content' });
  await remove.getByLabel('Reason (the author is told)').fill('Advertising is not allowed');
  await snap(moderator!, 'moderation-remove-dialog-1280');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(toasts(moderator!).getByText('Content removed')).toBeVisible();
  await expect(moderator!.getByText('No open reports. All clear.')).toBeVisible();
  const log = moderator!.getByRole('list', { name: 'Moderation actions, newest first' });
  await expect(log).toContainText(`@${moderatorUser.username} removed a post of @${authorUser.username}`);
  await expect(log).toContainText('Advertising is not allowed');
  await setThemeViaUi(moderator!, 'dark');
  await snap(moderator!, 'moderation-after-1280-dark');

  // Gone for everyone; the author is told why, by "Moderators".
  await reporter!.goto('/');
  await expect(reporter!.getByRole('list', { name: 'Posts' })).toBeVisible();
  await expect(postCard(reporter!, text)).toHaveCount(0);
  await author!.goto('/');
  await expect(postCard(author!, text)).toHaveCount(0);
  await author!.getByRole('button', { name: 'Notifications' }).click();
  const bell = author!.getByRole('dialog', { name: 'Notifications list' });
  await expect(bell).toContainText('Moderators removed your post. Reason: Advertising is not allowed');
  await snap(author!, 'moderation-notification-1280-light');

  // The reporter reports the author from their profile; the moderator suspends them for 7 days.
  await reporter!.setViewportSize({ width: 1280, height: 800 });
  await reporter!.goto(`/profile/${authorUser.username}`);
  // Report is in the profile's "More actions" menu, beside Mute and Block.
  const more = reporter!.getByRole('button', { name: `More actions for @${authorUser.username}` });
  await expect(more).toBeVisible();
  await setThemeViaUi(reporter!, 'light');
  await snap(reporter!, 'profile-report-1280-light');
  await setThemeViaUi(reporter!, 'dark');
  await snap(reporter!, 'profile-report-1280-dark');
  await reporter!.setViewportSize({ width: 390, height: 844 });
  await snap(reporter!, 'profile-report-390-dark');
  await setThemeViaUi(reporter!, 'light');
  await snap(reporter!, 'profile-report-390-light');
  await more.click();
  const reportItem = reporter!.getByRole('menuitem', { name: `Report @${authorUser.username}` });
  await expect(reportItem).toBeVisible();
  await snap(reporter!, 'profile-report-menu-390-light');
  await reportItem.click();
  const memberDialog = reporter!.getByRole('dialog', { name: 'Report this member' });
  await memberDialog.getByLabel('Why are you reporting this?').fill('Keeps advertising');
  await memberDialog.getByRole('button', { name: 'Send report' }).click();
  await expect(toasts(reporter!).getByText('Report sent')).toBeVisible();

  await moderator!.reload();
  const memberReport = moderator!
    .locator('div')
    .filter({ has: moderator!.getByRole('heading', { name: `Member by @${authorUser.username}` }) })
    .last();
  await expect(memberReport).toContainText('Keeps advertising');
  await memberReport.getByRole('button', { name: `Suspend @${authorUser.username}` }).click();
  const suspend = moderator!.getByRole('dialog', { name: 'Suspend member' });
  await suspend.getByLabel('7 days').check();
  await suspend.getByLabel('Reason (for the audit log)').fill('Spam after a warning');
  await snap(moderator!, 'moderation-suspend-dialog-1280');
  await suspend.getByRole('button', { name: 'Suspend' }).click();
  await expect(toasts(moderator!).getByText('Member suspended')).toBeVisible();
  await expect(moderator!.getByRole('list', { name: 'Moderation actions, newest first' })).toContainText(
    `@${moderatorUser.username} suspended @${authorUser.username} until`,
  );

  // The author's session has ended, and logging in is refused while the suspension lasts.
  await author!.reload();
  await expect(author!.getByRole('link', { name: 'Login' })).toBeVisible();
  await loginViaUi(author!, authorUser);
  await expect(toasts(author!).getByText(/This account is suspended until/)).toBeVisible();
  await snap(author!, 'suspended-login-1280-light');

  // While suspended, what they wrote is out of sight: their profile says so and shows no posts.
  await reporter!.goto(`/profile/${authorUser.username}`);
  await expect(
    reporter!.getByText(`@${authorUser.username} is suspended. Their posts, comments and media are hidden.`),
  ).toBeVisible();
  await expect(reporter!.getByRole('tab', { name: 'Posts' })).toHaveCount(0);
  await snapAll(reporter!, 'profile-suspended');

  await Promise.all(contexts.map((c) => c.close()));
});

test('Report on a comment and on a received message', async ({ browser }) => {
  test.setTimeout(90_000);
  const contexts = await Promise.all([0, 1].map(() => browser.newContext(CONTEXT)));
  const [alice, bob] = await Promise.all(contexts.map((c) => c.newPage()));
  const aliceUser = uniqueUser('alice');
  const bobUser = uniqueUser('bob');
  await signUp(alice!, aliceUser);
  await signUp(bob!, bobUser);
  const text = `A post to comment on ${Date.now()}`;
  await createPostViaUi(alice!, text);

  // Bob comments on Alice's post and writes to her.
  await bob!.goto('/');
  const bobCard = postCard(bob!, text);
  await bobCard.getByRole('button', { name: 'Comments' }).click();
  await bobCard.getByLabel('Write a comment').fill('You are all wrong, as usual');
  await bobCard.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(bobCard.getByRole('region', { name: 'Comments' }).getByRole('listitem')).toHaveCount(1);
  // Nobody reports themself: no Report on Bob's own comment.
  await expect(bobCard.getByRole('button', { name: 'Report comment' })).toHaveCount(0);
  await bob!.goto(`/profile/${aliceUser.username}`);
  await bob!.getByRole('button', { name: 'Message' }).click();
  const bobThread = bob!.getByRole('region', { name: 'Thread' });
  await bobThread.getByRole('textbox', { name: 'Message' }).fill('Send me money or else');
  await bobThread.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(bobThread.getByText('Sent')).toBeVisible();
  await expect(bobThread.getByRole('button', { name: 'Report message' })).toHaveCount(0);

  // Alice reports the comment…
  await alice!.goto('/');
  const card = postCard(alice!, text);
  await card.getByRole('button', { name: 'Comments' }).click();
  const comments = card.getByRole('region', { name: 'Comments' });
  await expect(comments.getByRole('listitem')).toHaveCount(1);
  for (const [width, theme] of [
    [1280, 'light'],
    [1280, 'dark'],
    [390, 'dark'],
    [390, 'light'],
  ] as const) {
    await alice!.setViewportSize({ width, height: 844 });
    await setThemeViaUi(alice!, theme);
    await card.scrollIntoViewIfNeeded();
    await snap(alice!, `comment-report-${width}-${theme}`);
  }
  await comments.getByRole('button', { name: 'Report comment' }).click();
  const dialog = alice!.getByRole('dialog', { name: 'Report this comment' });
  await expect(dialog).toContainText(`Comment by ${bobUser.displayName}`);
  await dialog.getByLabel('Why are you reporting this?').fill('Rude');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(toasts(alice!).getByText('Report sent')).toBeVisible();

  // …and the message.
  await alice!.setViewportSize({ width: 1280, height: 844 });
  await alice!.goto('/chat');
  await alice!
    .getByRole('region', { name: 'Conversations' })
    .getByRole('button', { name: new RegExp(bobUser.displayName) })
    .click();
  const thread = alice!.getByRole('region', { name: 'Thread' });
  await expect(thread.getByText('Send me money or else')).toBeVisible();
  for (const [width, theme] of [
    [1280, 'light'],
    [1280, 'dark'],
    [390, 'dark'],
    [390, 'light'],
  ] as const) {
    await alice!.setViewportSize({ width, height: 844 });
    await setThemeViaUi(alice!, theme);
    await snap(alice!, `message-report-${width}-${theme}`);
  }
  await thread.getByRole('button', { name: 'Report message' }).click();
  const messageDialog = alice!.getByRole('dialog', { name: 'Report this message' });
  await messageDialog.getByLabel('Why are you reporting this?').fill('Threats');
  await messageDialog.getByRole('button', { name: 'Send report' }).click();
  await expect(toasts(alice!).getByText('Report sent')).toBeVisible();

  await Promise.all(contexts.map((c) => c.close()));
});
