import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  type Response,
} from '@playwright/test';
import { server } from '../servers';

let n = 0;
export function uniqueUser(prefix = 'e2e') {
  n += 1;
  const id = `${prefix}${Date.now().toString(36)}${n}`;
  return {
    username: id,
    email: `${id}@example.com`,
    password: 'secret123',
    displayName: `${prefix} person ${n}`,
  };
}

export type NewUser = ReturnType<typeof uniqueUser>;

/** The two viewport sizes every screen is checked and photographed at. */
export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/**
 * A browser context's options for every spec: desktop size, and reduced motion, so screenshots
 * never catch a colour transition half-way (e.g. right after a theme switch).
 */
export const CONTEXT = { viewport: DESKTOP, reducedMotion: 'reduce' } as const;

/** A page in a fresh browser context (its own cookies) at desktop size. */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext(CONTEXT);
  return context.newPage();
}

/**
 * CI checks and does not look: it takes no screenshots and runs each screen's axe check in each
 * theme and at each width once (light at 1280, dark at 390), not in every pairing. On two cores
 * that was about four minutes of the suite. A local run, or E2E_FULL=1, takes and checks them all.
 * A loop that only photographs goes through PHOTO_THEMES: in CI it would switch themes for nothing.
 */
const FULL = !process.env.CI || process.env.E2E_FULL === '1';

/**
 * Saves a named screenshot of what the window shows next to the run's other artifacts
 * (e2e/test-output/screens). The whole page only when asked: a full-page capture of a long feed
 * costs a second or more of CPU, and the suite's time is CPU time (about 180 captures a run).
 */
export async function snap(page: Page, name: string, { fullPage = false } = {}): Promise<void> {
  if (!FULL) return;
  await page.screenshot({ path: `test-output/screens/${name}.png`, fullPage });
}

/** `snap` of one element (a card, a dialog) rather than the window. */
export async function snapElement(element: Locator, name: string): Promise<void> {
  if (!FULL) return;
  await element.screenshot({ path: `test-output/screens/${name}.png` });
}

export async function registerViaUi(page: Page, user: NewUser): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  const form = page.getByRole('tabpanel', { name: 'Register' });
  await form.getByLabel('Username').fill(user.username);
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password').fill(user.password);
  await form.getByLabel('Display name').fill(user.displayName);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
}

/**
 * A new member, signed up over REST in the page's context (whose cookie jar the page shares), on
 * the home page: for specs whose subject is not the sign-up form (account.spec and
 * sessions.spec fill that in). About a second and a half a member less than the form.
 */
export async function signUp(page: Page, user: NewUser): Promise<void> {
  await registerUserOverApi(page.context(), user);
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
}

export async function loginViaUi(page: Page, user: Pick<NewUser, 'email' | 'password'>): Promise<void> {
  await page.goto('/auth');
  const form = page.getByRole('tabpanel', { name: 'Login' });
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password').fill(user.password);
  await form.getByRole('button', { name: 'Login' }).click();
}

export async function logoutViaUi(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  // The header's Login (a page such as /settings may show a Login link of its own as well).
  const header = page.getByRole('banner');
  await expect(
    header.getByRole('link', { name: 'Login' }).or(header.getByRole('button', { name: 'Login' })),
  ).toBeVisible();
}

/** The toast area (Radix's viewport, labelled 'Notifications'); F8 focuses it. */
export function toasts(page: Page): Locator {
  return page.getByRole('region', { name: 'Notifications' });
}

/** A post card in the feed or on a profile, found by (part of) its text. */
export function postCard(page: Page, text: string): Locator {
  return page.getByRole('article').filter({ hasText: text });
}

/** Writes a post with the home composer and waits for it at the top of the feed. */
export async function createPostViaUi(page: Page, text: string): Promise<void> {
  if (new URL(page.url()).pathname !== '/') await page.goto('/');
  await page.getByPlaceholder("What's on your mind?").fill(text);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toasts(page).getByText('Post created successfully!')).toBeVisible();
  await expect(page.getByPlaceholder("What's on your mind?")).toHaveValue('');
  await expect(page.getByRole('list', { name: 'Posts' }).getByRole('article').first()).toContainText(text);
}

/**
 * Mail this worker's server's SMTP receiver got (serve.mjs appends one JSON line per message to
 * mail.jsonl in its data directory).
 */
export const MAIL_FILE = path.join(server.dataPath, 'mail.jsonl');

export interface ReceivedMail {
  to: string[];
  subject: string;
  raw: string;
}

export function readMail(): ReceivedMail[] {
  if (!existsSync(MAIL_FILE)) return [];
  return readFileSync(MAIL_FILE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ReceivedMail);
}

/** Polls the mail file for the newest reset code sent to `email` after `after` messages. */
export async function waitForResetCode(email: string, after = 0, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = readMail()
      .slice(after)
      .filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()));
    const match = mails.at(-1)?.raw.match(/reset code is:\s*(\d{6})/);
    if (match?.[1]) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No reset code mailed to ${email} within ${timeoutMs} ms`);
}

/**
 * The app has started on the page (main.tsx marks `<html data-app="started">`). A page rendered on
 * the server (a visitor's, or a member's home and Chat) is on screen before: its scripts are asked
 * for once it has painted (public/start-after-paint.js), and a key pressed on it until then is the
 * HTML's alone, lost to the app (a click waits: its buttons take no pointer until then, index.css).
 * Wait for this before using the keyboard on such a page; what the server rendered can be read at
 * once.
 */
export async function appStarted(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-app', 'started');
}

/**
 * The page's successful answer to the tRPC procedure `procedure` (e.g. `posts.like`), alone or in
 * a batch (`/trpc/a,b`). Ask for it before the press that sends the call, and await it before a
 * reload or a second reader's look: the UI turns before the server has the call, and a reload
 * cancels a call still on its way.
 */
export function answerTo(page: Page, procedure: string): Promise<Response> {
  return page.waitForResponse((res) => {
    const { pathname } = new URL(res.url());
    return (
      res.ok() &&
      pathname.startsWith('/trpc/') &&
      pathname.slice('/trpc/'.length).split(',').includes(procedure)
    );
  });
}

/**
 * Picks Light or Dark (or System) in the header's theme menu and waits for the <html> class
 * (System: the class the emulated prefers-color-scheme gives).
 */
export async function setThemeViaUi(page: Page, theme: 'light' | 'dark' | 'system'): Promise<void> {
  await appStarted(page);
  const html = page.locator('html');
  const label = { light: 'Light', dark: 'Dark', system: 'System' }[theme];
  const trigger = page.getByRole('button', { name: /^Theme: / }).first();
  if ((await trigger.getAttribute('aria-label')) !== `Theme: ${label}`) {
    // By keyboard, as a keyboard user would. A click was twice in CI left waiting for the button to
    // be "stable" (a check that needs animation frames) until the test ran out; forced, it went
    // to a button just replaced by Radix's (LazyMenu swaps its stand-in once its chunk is in) and
    // failed as "not visible". A key press goes to whichever button is there: LazyMenu keeps the
    // focus across the swap and plays a press on the stand-in again on Radix's trigger.
    await trigger.press('Enter');
    await page.getByRole('menuitemradio', { name: label }).press('Enter');
    await expect(page.getByRole('menu')).toBeHidden();
    // The menu gives the focus back to its button, ringed after keys; the pictures go without it.
    await expect(trigger).toBeFocused();
    await trigger.blur();
  }
  const dark =
    theme === 'system'
      ? await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)
      : theme === 'dark';
  if (dark) await expect(html).toHaveClass(/dark/);
  else await expect(html).not.toHaveClass(/dark/);
  // Two frames: the new colours are painted everywhere before a screenshot is taken.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real RGB PNG (a colour gradient) made in memory, for Playwright's setInputFiles. */
export function pngFile(name = 'cube.png', width = 320, height = 200) {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0, then RGB
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = Math.round((x / width) * 255);
      row[2 + x * 3] = Math.round((y / height) * 200) + 40;
      row[3 + x * 3] = 220;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const buffer = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return { name, mimeType: 'image/png', buffer };
}

/** The image-upload dialog with its Uppy dashboard (docs/web.md, "Uploads"). */
export function uploadDialog(page: Page): Locator {
  return page.locator('.upload-dialog');
}

/** Picks `file` in the open upload dialog and presses Uppy's upload button. */
export async function uploadInDialog(page: Page, file: ReturnType<typeof pngFile>): Promise<void> {
  const dialog = uploadDialog(page);
  await expect(dialog).toBeVisible();
  await dialog
    .locator('input.uppy-Dashboard-input[type=file]:not([webkitdirectory])')
    .first()
    .setInputFiles(file);
  await dialog.getByRole('button', { name: /^Upload 1 file/ }).click();
  await expectUploaded(page);
  await expect(dialog).toBeHidden();
}

/**
 * The end of an upload from the dialog: its toast. Behind it are three requests and a re-encode on
 * the server (docs/web.md, "Uploads"), the longest chain behind one signal in the suite, so it has
 * 20 s rather than the suite's 7. In one loaded CI run (2026-12-01) uploads.spec's second upload
 * did not toast within 7 s; six repeats on a machine with both cores busy passed (the one timed
 * took 1.8 s), and the cause is not known. A refusal would show as "Failed to process image" and under the dashboard.
 */
export async function expectUploaded(page: Page): Promise<void> {
  await expect(toasts(page).getByText('Image uploaded successfully!')).toBeVisible({ timeout: 20_000 });
}

/**
 * Both themes at both widths; `prepare` opens what is to be shown. Taken as the window shows it,
 * like snap(); `fullPage` for a page whose point is below the fold (never for a dialog or menu:
 * a full-page capture scrolls fixed layers out of place). CI takes no picture, so it brings the
 * screen up in each theme and at each width once (`pairings`), for what `prepare` checks.
 */
export async function snapAll(
  page: Page,
  name: string,
  prepare: () => Promise<void> = async () => {},
  fullPage = false,
) {
  for (const [theme, width] of pairings(['light', 'dark'], ['1280', '390'])) {
    await page.setViewportSize(width === '1280' ? DESKTOP : MOBILE);
    await setThemeViaUi(page, theme);
    await prepare();
    await snap(page, `${name}-${theme}-${width}`, { fullPage });
    await page.keyboard.press('Escape');
  }
  await page.setViewportSize(DESKTOP);
  await setThemeViaUi(page, 'light');
}

/** A fresh browser context (its own cookies) with a newly registered member's page. */
export async function newMember(browser: Browser, prefix = 'e2e') {
  const context = await browser.newContext(CONTEXT);
  const page = await context.newPage();
  const user = uniqueUser(prefix);
  await signUp(page, user);
  return { context, page, user };
}

export type Theme = 'light' | 'dark';
export type Width = '1280' | '390';

/** The themes a loop that only photographs goes through: both when FULL, none in CI. */
export const PHOTO_THEMES: readonly Theme[] = FULL ? ['light', 'dark'] : [];

export interface ShootAndAuditOptions {
  /** brings the screen up; run again after each size and theme change (menus and dialogs close) */
  prepare?: (width: Width) => Promise<void>;
  /** closes what `prepare` opened, so the header's theme menu can be reached: Escape by default */
  close?: () => Promise<void>;
  widths?: readonly Width[];
  themes?: readonly Theme[];
}

/**
 * Runs `check` with every element drawn. Post cards below the screen skip their rendering
 * (`content-visibility: auto`, index.css), and Chromium leaves their styles as they were until
 * they are drawn: after a theme change, axe read the old theme's colours off the dark cards
 * (3:1 "contrast" that no one ever sees). They are drawn for the check (an inline style, which
 * the CSP allows), then skip again. Drawn, their links and buttons start their colour transitions
 * from the old theme (`transition-colors`, 150 ms), and axe read those first frames in CI (1.07:1):
 * every running transition is taken to its end first, as the eye sees it.
 */
export async function withEverythingDrawn<T>(page: Page, check: () => Promise<T>): Promise<T> {
  await page.evaluate(() => {
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      if (getComputedStyle(el).contentVisibility === 'auto') {
        el.dataset.e2eSkipped = '';
        el.style.contentVisibility = 'visible';
      }
    }
    // getAnimations() brings styles up to date first, so the transitions just started are listed.
    // An entrance that runs once (the New posts pill fading in, a toast) is finished too: axe blends
    // a half-faded pill into the text under it and reads a contrast nobody sees (CI, 2026-11-30:
    // a card's @handle at 3:1 under the pill, on a machine too busy to finish 200 ms in time).
    // Endless ones (a spinner) have no end to jump to.
    //
    // Until none is left: a finished colour transition changes what the element's children inherit,
    // and each child with a colour transition of its own then starts one, from the old theme's
    // colour, at the next getAnimations(). A theme change on the home feed took 3 to 9 rounds (up to
    // 590 transitions in one); after the first, up to 599 were still running. Until the page draws
    // again they show their start, the old theme's colour: what axe read on a busy machine, we
    // think (1.07:1; bench/README.md, "The e2e suite on two workers").
    const finite = (animation: Animation) =>
      animation.playState !== 'finished' &&
      (animation instanceof CSSTransition ||
        (animation instanceof CSSAnimation && animation.effect?.getComputedTiming().iterations !== Infinity));
    for (let round = 0; round < 50; round++) {
      const running = document.getAnimations().filter(finite);
      if (running.length === 0) break;
      for (const animation of running) animation.finish();
    }
  });
  try {
    return await check();
  } finally {
    await page.evaluate(() => {
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-e2e-skipped]'))) {
        el.style.contentVisibility = '';
        delete el.dataset.e2eSkipped;
      }
    });
  }
}

/**
 * axe as every spec runs it. The experimental label-content-name-mismatch rule runs too: a visible
 * label is part of the name.
 */
export function axe(page: Page): AxeBuilder {
  return (
    new AxeBuilder({ page })
      // Only violations are collected: listing every passing node was a quarter of a check's time.
      .options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
      // Legacy mode: axe runs in the page alone, without the blank page it otherwise opens to merge
      // frames' results (the app has no frames of its own); that page was half of a check's time.
      .setLegacyMode(true)
  );
}

/** Serious and critical axe findings on what the page shows now, one line per node. */
export async function auditA11y(page: Page, screen: string): Promise<string[]> {
  const result = await withEverythingDrawn(page, () => axe(page).analyze());
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${screen}: ${v.id} (${v.impact}) ${n.target.join(' ')}\n    ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`,
      ),
    );
}

/** Every theme at every width; in CI (not FULL) each theme and each width once, paired in turn. */
export function pairings(themes: readonly Theme[], widths: readonly Width[]): [Theme, Width][] {
  if (FULL) return themes.flatMap((theme) => widths.map((width): [Theme, Width] => [theme, width]));
  const count = Math.max(themes.length, widths.length);
  return Array.from({ length: count }, (_, i): [Theme, Width] => [
    themes[i % themes.length]!,
    widths[i % widths.length]!,
  ]);
}

/**
 * The widths a test about one theme checks its screen at: both when FULL; in CI the one `pairings`
 * gives that theme (light at 1280, dark at 390), so a screen split into a light and a dark test is
 * still checked once in each theme and at each width.
 */
export function widthsFor(theme: Theme): Width[] {
  if (FULL) return ['1280', '390'];
  return theme === 'light' ? ['1280'] : ['390'];
}

/**
 * A screen in each theme at each width (both themes at 1280 and 390 px unless told; in CI, see
 * FULL, each once): `prepare`
 * brings it up, then it is photographed as the window shows it
 * (test-output/screens/<name>-<theme>-<width>.png) and checked with axe, and `close` closes it.
 * Ends at desktop size in the light theme. A finding fails the test (a soft assertion: the test
 * goes on, so one run lists every screen's findings).
 */
export async function shootAndAudit(
  page: Page,
  name: string,
  {
    prepare = async () => {},
    close = () => page.keyboard.press('Escape'),
    widths = ['1280', '390'],
    themes = ['light', 'dark'],
  }: ShootAndAuditOptions = {},
): Promise<void> {
  const found: string[] = [];
  for (const [theme, width] of pairings(themes, widths)) {
    await page.setViewportSize(width === '1280' ? DESKTOP : MOBILE);
    await setThemeViaUi(page, theme);
    await prepare(width);
    // Two frames: what `prepare` changed is painted before the picture and the colour checks.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    await snap(page, `${name}-${theme}-${width}`);
    found.push(...(await auditA11y(page, `${name} ${theme} ${width}`)));
    await close();
  }
  await page.setViewportSize(DESKTOP);
  await setThemeViaUi(page, 'light');
  expect.soft(found, `axe on ${name}:\n${found.join('\n')}`).toEqual([]);
}

export type ApiMember = NewUser & { id: string };

/** Registers a `prefix` member over REST in `context`, whose cookie jar keeps the session. */
export async function registerOverApi(context: BrowserContext, prefix: string): Promise<ApiMember> {
  return registerUserOverApi(context, uniqueUser(prefix));
}

/** Registers `user` over REST in `context`, whose cookie jar keeps the session. */
async function registerUserOverApi(context: BrowserContext, user: NewUser): Promise<ApiMember> {
  const res = await context.request.post('/api/auth/register', { data: user });
  expect(res.status(), await res.text()).toBe(201);
  return { ...user, id: (await res.json()).user.id };
}

/** POSTs `data` as JSON to a REST row and expects success; returns the answer's body. */
export async function postOverApi(
  request: APIRequestContext,
  url: string,
  data: object,
): Promise<Record<string, unknown>> {
  const res = await request.post(url, { data });
  expect(res.ok(), `${url}: ${await res.text()}`).toBe(true);
  return res.json();
}
