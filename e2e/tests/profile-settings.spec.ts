/**
 * Profile and settings: the avatar in front of the banner, the upload dialog (its close button, a
 * refused file, a phone, dark mode, four images at once), the Followers and Following lists, and
 * Settings' image previews and sections. Each screen is photographed at 1280 and 390 px in both
 * themes and checked with axe (no serious or critical finding): shootAndAudit.
 */
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import { baseURL } from '../servers';
import {
  appStarted,
  DESKTOP,
  MOBILE,
  type NewUser,
  pngFile,
  shootAndAudit,
  signUp,
  uniqueUser,
  uploadDialog,
  uploadInDialog,
  widthsFor,
} from './helpers.js';

test.use({ reducedMotion: 'reduce', viewport: DESKTOP });

/** A member registered over REST, with their own cookies, for the members around the one on screen. */
async function apiMember(prefix: string): Promise<{ user: NewUser; id: string; api: APIRequestContext }> {
  const user = uniqueUser(prefix);
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const res = await api.post('/api/auth/register', {
    data: {
      username: user.username,
      email: user.email,
      password: user.password,
      displayName: user.displayName,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { user, id: (await res.json()).user.id, api };
}

/** The element drawn at a point of `selector`'s box (fractions of its width and height). */
async function drawnAt(page: Page, selector: string, fx: number, fy: number): Promise<string> {
  return page.evaluate(
    ({ selector, fx, fy }) => {
      const target = document.querySelector(selector)!;
      const box = target.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width * fx, box.top + box.height * fy);
      return hit === target || target.contains(hit) ? 'avatar' : (hit?.outerHTML.slice(0, 80) ?? 'nothing');
    },
    { selector, fx, fy },
  );
}

/** A new member who uploads a banner and a profile picture on Settings, through the upload dialog. */
async function memberWithImages(page: Page) {
  await signUp(page, uniqueUser('banner'));
  await page.goto('/settings');
  const profileCard = page.getByRole('region', { name: 'Profile Settings' });
  await expect(profileCard.getByRole('img', { name: 'No banner: the default one is shown' })).toBeVisible();
  await profileCard.getByRole('button', { name: 'Change banner' }).click();
  await expect(page.getByRole('dialog', { name: 'Upload a banner' })).toBeVisible();
  await uploadInDialog(page, pngFile('banner.png', 900, 300));
  await expect(profileCard.getByRole('img', { name: 'Your banner' })).toHaveAttribute(
    'src',
    /\/objects\/.+\/thumb$/,
  );
  await profileCard.getByRole('button', { name: 'Change profile picture' }).click();
  await uploadInDialog(page, pngFile('me.png', 256, 256));
  await expect(profileCard.getByRole('img', { name: 'Your profile picture' })).toBeVisible();
  return profileCard;
}

/** The upload dialog of the home composer and its file input. */
function composerUpload(page: Page) {
  const dialog = uploadDialog(page);
  const input = dialog.locator('input.uppy-Dashboard-input[type=file]:not([webkitdirectory])').first();
  const closeDialog = async () => {
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();
  };
  return { dialog, input, closeDialog };
}

const fourImages = () =>
  ['a.png', 'b.png', 'c.png', 'd.png'].map((name, i) => pngFile(name, 320 + i * 10, 200));

test.describe('profile and settings', () => {
  test('Settings shows the banner and profile picture as images, with Change, Remove and the URL under them', async ({
    page,
  }) => {
    const profileCard = await memberWithImages(page);
    await expect(profileCard.getByRole('button', { name: 'Remove profile picture' })).toBeVisible();
    // The URL field stays, under its preview.
    await expect(profileCard.getByLabel('Banner URL')).toHaveValue(/^\/objects\//);
    await shootAndAudit(page, 'settings-images', {
      prepare: async () => {
        await profileCard
          .getByRole('group', { name: 'Profile picture' })
          .evaluate((group) => group.scrollIntoView({ block: 'start' }));
        await page.evaluate(() => window.scrollBy(0, -80));
        await expect(profileCard.getByRole('img', { name: 'Your banner' })).toBeVisible();
      },
    });
  });

  test('the avatar sits in front of the banner, with an uploaded banner and avatar', async ({ page }) => {
    await memberWithImages(page);
    await page.goto('/profile');
    const avatar = 'section[aria-labelledby="profile-name"] img[src*="/objects/"][width="112"]';
    await expect(page.locator(avatar)).toBeVisible();
    const banner = page.locator('section[aria-labelledby="profile-name"] img').first();
    await expect(banner).toHaveAttribute('src', /\/objects\//);
    // The avatar's top half overlaps the banner: there too the avatar is what is drawn.
    for (const [fx, fy] of [
      [0.5, 0.15],
      [0.5, 0.3],
      [0.3, 0.4],
      [0.5, 0.8],
    ] as const) {
      expect(await drawnAt(page, avatar, fx, fy), `at ${fx}, ${fy}`).toBe('avatar');
    }
    await shootAndAudit(page, 'profile-banner', {
      prepare: async () => {
        await page.evaluate(() => window.scrollTo(0, 0));
        await expect(page.locator(avatar)).toBeVisible();
        expect(await drawnAt(page, avatar, 0.5, 0.2)).toBe('avatar');
      },
    });
  });

  test('Followers and Following open paged lists with Follow buttons', async ({ page }) => {
    const star = await apiMember('star');
    const fans: Awaited<ReturnType<typeof apiMember>>[] = [];
    for (let i = 0; i < 3; i++) {
      const fan = await apiMember('fan');
      expect((await fan.api.post(`/api/users/${star.id}/follow`)).status()).toBe(200);
      fans.push(fan);
    }
    const viewer = uniqueUser('viewer');
    await signUp(page, viewer);
    await page.goto(`/profile/${star.user.username}`);

    const followersButton = page.getByRole('button', { name: '3 followers' });
    await followersButton.click();
    const dialog = page.getByRole('dialog', { name: 'Followers' });
    await expect(dialog).toBeVisible();
    // Most recent follow first.
    await expect(dialog.getByRole('link', { name: fans[2]!.user.displayName })).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveCount(3);
    await expect(dialog.getByRole('listitem').first()).toContainText(fans[2]!.user.displayName);

    // Follow from the list; it sticks.
    await dialog.getByRole('button', { name: `Follow ${fans[0]!.user.displayName}` }).click();
    await expect(dialog.getByRole('button', { name: `Unfollow ${fans[0]!.user.displayName}` })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(followersButton).toBeFocused();

    // Keyboard: the count opens with Enter too.
    await followersButton.press('Enter');
    await expect(dialog.getByRole('button', { name: `Unfollow ${fans[0]!.user.displayName}` })).toBeVisible();
    await page.keyboard.press('Escape');

    // The viewer's own Following now lists that fan; the star follows no one (the empty state).
    await page.goto('/profile');
    await page.getByRole('button', { name: '1 following' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Following' }).getByRole('link', { name: fans[0]!.user.displayName }),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await page.goto(`/profile/${star.user.username}`);
    await page.getByRole('button', { name: '0 following' }).click();
    await expect(page.getByText(`${star.user.displayName} doesn't follow anyone yet.`)).toBeVisible();
    await page.keyboard.press('Escape');

    await shootAndAudit(page, 'followers', {
      prepare: async () => {
        await page.getByRole('button', { name: /^\d+ followers?$/ }).click();
        await expect(dialog.getByRole('listitem')).toHaveCount(3);
      },
      close: async () => {
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      },
    });
    for (const fan of fans) await fan.api.dispose();
    await star.api.dispose();
  });

  // One theme per test: the home feed behind the dialog makes each way's axe check take seconds.
  for (const theme of ['light', 'dark'] as const) {
    test(`the upload dialog takes four images at once and fits a phone, its close button in the card (${theme})`, async ({
      page,
    }) => {
      await signUp(page, uniqueUser('four'));
      const { dialog, input, closeDialog } = composerUpload(page);
      const four = fourImages();
      await shootAndAudit(page, 'upload-dialog-four', {
        prepare: async () => {
          await page.getByRole('button', { name: 'Media' }).click();
          await expect(dialog).toBeVisible();
          await expect(dialog).toContainText('up to 4 images');
          await input.setInputFiles(four);
          await expect(dialog.getByRole('button', { name: /^Upload 4 files/ })).toBeVisible();
          await expect(dialog.locator('img.uppy-Dashboard-Item-previewImg')).toHaveCount(4);
          const card = (await dialog.boundingBox())!;
          const viewport = page.viewportSize()!;
          // Never full screen: the card leaves the page around it, on a phone too.
          expect(card.width).toBeLessThan(viewport.width - 8);
          expect(card.x).toBeGreaterThan(4);
          const close = dialog.getByRole('button', { name: 'Close', exact: true });
          await expect(close).toBeVisible();
          const x = (await close.boundingBox())!;
          expect(x.x).toBeGreaterThanOrEqual(card.x);
          expect(x.x + x.width).toBeLessThanOrEqual(card.x + card.width);
          expect(x.y).toBeGreaterThanOrEqual(card.y);
        },
        close: closeDialog,
        themes: [theme],
        widths: widthsFor(theme),
      });
    });
  }

  test('four images go up in one step into the composer; the dialog then takes only the free slots', async ({
    page,
  }) => {
    await signUp(page, uniqueUser('slots'));
    const { dialog, input } = composerUpload(page);
    await page.getByRole('button', { name: 'Media' }).click();
    await input.setInputFiles(fourImages());
    await dialog.getByRole('button', { name: /^Upload 4 files/ }).click();
    // Four uploads and their thumbnails on a loaded machine: it ends as soon as they are in.
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    for (let i = 1; i <= 4; i++)
      await expect(page.getByRole('img', { name: `Attachment ${i}` })).toBeVisible();
    await expect(page.getByRole('button', { name: /Media/ })).toBeDisabled();
    await page.getByRole('button', { name: 'Remove image 4' }).click();
    await page.getByRole('button', { name: 'Remove image 3' }).click();

    // The dialog takes only the free slots: two now.
    await page.getByRole('button', { name: /Media/ }).click();
    await expect(dialog).toContainText('up to 2 images');
    await input.setInputFiles([pngFile('e.png'), pngFile('f.png'), pngFile('g.png')]);
    await expect(dialog).toContainText('You can only upload 2 files');
    await input.setInputFiles([pngFile('e.png'), pngFile('f.png')]);
    await expect(dialog.locator('img.uppy-Dashboard-Item-previewImg')).toHaveCount(2);
    await expect(dialog.getByRole('button', { name: /^Upload 2 files/ })).toBeVisible();
  });

  test("a file the server refuses shows as failed only, with the server's words", async ({ page }) => {
    await signUp(page, uniqueUser('refused'));
    const { dialog, input, closeDialog } = composerUpload(page);
    // Not an image inside.
    const fake = {
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image at all '.repeat(20)),
    };
    const refuse = async () => {
      await page.getByRole('button', { name: /Media/ }).click();
      await input.setInputFiles(fake);
      await dialog.getByRole('button', { name: /^Upload 1 file/ }).click();
      const alert = dialog.getByRole('alert').filter({ hasText: 'Failed to upload fake.png:' });
      await expect(alert).toContainText(
        'Failed to upload fake.png: Only PNG, JPEG, GIF or WebP images up to 5 MB are allowed',
      );
      await expect(dialog.locator('.uppy-StatusBar')).toContainText('Upload failed');
      await expect(dialog.locator('.uppy-StatusBar')).toContainText('0 of 1 file uploaded');
      await expect(dialog).not.toContainText('Upload complete');
      await expect(dialog).not.toContainText('1 of 1 file uploaded');
      await expect(dialog.getByText('Uploading 1 file')).toBeHidden();
      await expect(
        dialog.locator('.uppy-StatusBar').getByRole('button', { name: 'Retry upload' }),
      ).toBeVisible();
    };
    await shootAndAudit(page, 'upload-dialog-refused', { prepare: refuse, close: closeDialog });
  });

  test('Settings has sections to jump to, below the header, and an address opens one', async ({ page }) => {
    await signUp(page, uniqueUser('jump'));
    await page.goto('/settings');
    // The links are the app's once it has started: before, a click is the HTML's own jump to the
    // section (scrolled to, not focused).
    await appStarted(page);
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    await expect(nav.getByRole('link')).toHaveText([
      'Profile',
      'Account',
      'Notifications',
      'Privacy',
      'Sessions',
      'Data',
    ]);
    for (const viewport of [DESKTOP, MOBILE]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, 0));
      for (const name of ['Privacy', 'Data', 'Account']) {
        await nav.getByRole('link', { name }).click();
        const heading = page.getByRole('heading', { level: 2, name });
        await expect(heading).toBeFocused();
        await expect(heading).toBeInViewport();
        // Not under the sticky header.
        const header = await page.locator('header').first().boundingBox();
        const box = (await heading.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0) - 1);
      }
    }
    await expect(page).toHaveURL(/\/settings#account$/);
    // An address with a section opens the page there, loaded afresh (the server renders it): the
    // browser scrolls as it reads the HTML, and the jump is made again once the page has hydrated,
    // the cards above having grown (settings-sections.tsx): the heading is focused, below the header.
    await page.goto('/');
    await page.goto('/settings#sessions');
    const sessions = page.getByRole('heading', { level: 2, name: 'Sessions' });
    await expect(sessions).toBeFocused();
    await expect(sessions).toBeInViewport();
    const header = (await page.locator('header').first().boundingBox())!;
    expect((await sessions.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
  });

  test('Settings in both themes at both widths', async ({ page }) => {
    await signUp(page, uniqueUser('settings'));
    await page.goto('/settings');
    await shootAndAudit(page, 'settings', {
      prepare: async () => {
        await page.evaluate(() => window.scrollTo(0, 0));
        await expect(page.getByRole('img', { name: 'No banner: the default one is shown' })).toBeVisible();
      },
    });
  });
});
