/**
 * Cubes in the member's language (issue #50): a visitor whose browser asks for German gets German
 * (rendered on the server and hydrated); Arabic lays the page out right to left and every screen
 * still works (compose, like, open a post, chat); a member's language is saved on their account
 * and follows them to a new browser. The texts are read from the checked-in catalogs, so a
 * translation can change without this test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import {
  answerTo,
  appStarted,
  auditA11y,
  CONTEXT,
  DESKTOP,
  loginViaUi,
  MOBILE,
  pairings,
  postOverApi,
  registerOverApi,
  snap,
} from './helpers.js';

type Lang = 'de' | 'ar';

const catalogs = new Map<Lang, string[]>();
/** `message`'s text in `lang` (with `context`, when the message has one). */
function tr(lang: Lang, message: string, context?: string): string {
  let blocks = catalogs.get(lang);
  if (!blocks) {
    const file = fileURLToPath(new URL(`../../apps/web/src/locales/${lang}/messages.po`, import.meta.url));
    blocks = readFileSync(file, 'utf8').split('\n\n');
    catalogs.set(lang, blocks);
  }
  const block = blocks.find((b) =>
    b.includes(`\nmsgid ${JSON.stringify(message)}\n`) || b.startsWith(`msgid ${JSON.stringify(message)}\n`)
      ? context
        ? b.includes(`msgctxt ${JSON.stringify(context)}`)
        : !b.includes('msgctxt ')
      : false,
  );
  const text = block && /\nmsgstr (".*")/.exec(block)?.[1];
  if (!text) throw new Error(`no ${lang} text for ${message}`);
  return JSON.parse(text) as string;
}

/**
 * Photographs and audits the page at both widths, light and dark (the System theme follows the
 * emulated scheme; in CI each scheme and each width once, as `pairings` says), each loaded at its
 * width, and checks nothing is wider than the window.
 */
async function shootBoth(
  page: Page,
  name: string,
  ready: () => Locator,
  { justOpened = false } = {},
): Promise<void> {
  const found: string[] = [];
  for (const [i, [scheme, width]] of pairings(['light', 'dark'], ['1280', '390']).entries()) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.setViewportSize(width === '1280' ? DESKTOP : MOBILE);
    // Each width laid out from the start: a page resized after axe's checks (which scroll and
    // measure) kept a stale horizontal scroll. A page `justOpened` (light, 1280) is the first way
    // as it is.
    if (i > 0 || !justOpened) await page.reload();
    await expect(ready()).toBeVisible();
    // Laid out again for the width (the side column follows a media query in React): nothing
    // wider than the window, in either direction.
    await expect
      .poll(() =>
        page.evaluate(() => {
          window.scrollTo(0, window.scrollY);
          return document.documentElement.scrollWidth - document.documentElement.clientWidth;
        }),
      )
      .toBeLessThanOrEqual(0);
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    await snap(page, `${name}-${scheme}-${width}`);
    found.push(...(await auditA11y(page, `${name} ${scheme} ${width}`)));
  }
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  expect.soft(found, `axe on ${name}:\n${found.join('\n')}`).toEqual([]);
}

const englishSources = new Map<Lang, Set<string>>();
/**
 * The app's English words that `lang` says otherwise: each catalog message without placeholders
 * whose translation differs, minus any that `lang` itself also uses (German "Name").
 */
function englishWords(lang: Lang): Set<string> {
  let words = englishSources.get(lang);
  if (words) return words;
  const file = fileURLToPath(new URL(`../../apps/web/src/locales/${lang}/messages.po`, import.meta.url));
  const pairs = readFileSync(file, 'utf8')
    .split('\n\n')
    .map((block) => [/\nmsgid (".*")|^msgid (".*")/.exec(block), /\nmsgstr (".*")/.exec(block)] as const)
    .filter(([id, str]) => id && str)
    .map(([id, str]) => [JSON.parse((id![1] ?? id![2])!) as string, JSON.parse(str![1]!) as string] as const);
  const translated = new Set(pairs.map(([, text]) => text));
  words = new Set(
    pairs
      .filter(([id, text]) => id !== text && !/[{<]/.test(id) && /[a-z]{2}/i.test(id) && !translated.has(id))
      .map(([id]) => id),
  );
  englishSources.set(lang, words);
  return words;
}

/** The app's English left on the page: text and accessible names that are one of its English words. */
async function englishLeft(page: Page, lang: Lang): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const texts = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && parent.closest('[hidden], script, style') === null) texts.add(node.textContent!.trim());
    }
    for (const element of Array.from(
      document.querySelectorAll('[aria-label], [placeholder], [title], [alt]'),
    )) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt'])
        if (element.hasAttribute(name)) texts.add(element.getAttribute(name)!.trim());
    }
    texts.add(document.title);
    return [...texts];
  });
  const english = englishWords(lang);
  return shown.filter((text) => english.has(text));
}

async function watchErrors(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

async function newContextIn(browser: Browser, locale: string) {
  return browser.newContext({ ...CONTEXT, locale });
}

test('a visitor whose browser asks for German reads / in German, rendered and hydrated', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await newContextIn(browser, 'de-DE');
  const page = await context.newPage();
  const errors = await watchErrors(page);
  const response = await page.goto('/');
  expect(await response?.text()).toContain('<html lang="de" dir="ltr"');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const nav = page.getByRole('navigation', { name: tr('de', 'Main navigation') });
  await expect(nav.getByRole('link', { name: tr('de', 'Home') })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: tr('de', 'Login') })).toBeVisible();
  // Hydrated: the language menu answers, and lists each language in itself.
  await appStarted(page);
  // By keyboard, as setThemeViaUi (helpers.ts) explains: a click retried in a loop could close the
  // menu the one before had opened, on a busy machine.
  await page
    .getByRole('button', { name: tr('de', 'Language: {name}').replace('{name}', 'Deutsch') })
    .press('Enter');
  await expect(page.getByRole('menuitemradio', { name: 'العربية' })).toBeVisible();
  await page.keyboard.press('Escape');
  await shootBoth(page, 'language-de-home', () => page.getByRole('article').first());
  expect(errors).toEqual([]);
  await context.close();
});

test('switching to Arabic lays the app out right to left, and compose, like, a post and chat still work', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const context = await newContextIn(browser, 'en-US');
  const friendContext = await newContextIn(browser, 'en-US');
  const member = await registerOverApi(context, 'arabic');
  const friend = await registerOverApi(friendContext, 'friend');
  const page = await context.newPage();
  const errors = await watchErrors(page);
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // The header's menu: Arabic, at once and for the next page. A key pressed on a page the server
  // rendered before the app has started is the HTML's alone (a press of the pointer waits by
  // itself: index.css).
  await appStarted(page);
  await page.getByRole('button', { name: 'Language: English' }).press('Enter');
  await page.getByRole('menuitemradio', { name: 'العربية' }).press('Enter');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.getByRole('navigation', { name: tr('ar', 'Main navigation') })).toBeVisible();

  // Compose.
  const text = `مرحبا من Cubes ${Date.now().toString(36)}`;
  await page.getByPlaceholder(tr('ar', "What's on your mind?")).fill(text);
  await page.getByRole('button', { name: tr('ar', 'Post', 'button: publish the post'), exact: true }).click();
  const card = page.getByRole('article').filter({ hasText: text });
  await expect(card).toBeVisible();

  // Like; saved, not just shown: the reload below would otherwise race the request.
  const liked = answerTo(page, 'posts.like');
  await card.locator('button[aria-pressed="false"]').first().click();
  await expect(card.locator('button[aria-pressed="true"]').first()).toBeVisible();
  await liked;

  // Reload: still Arabic, from the server's first byte.
  const reloaded = await page.reload();
  expect(await reloaded?.text()).toContain('<html lang="ar" dir="rtl"');
  await expect(page.getByRole('article').filter({ hasText: text })).toBeVisible();
  await shootBoth(page, 'language-ar-home', () => page.getByRole('article').filter({ hasText: text }));

  // Open the post: its page, right to left.
  await page.getByRole('article').filter({ hasText: text }).locator('a[href^="/posts/"]').first().click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
  await expect(page.getByText(text).first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await shootBoth(page, 'language-ar-post', () =>
    page.getByRole('article').filter({ hasText: text }).first(),
  );

  // Chat: a message to a friend.
  await page.goto(`/chat?user=${friend.id}`);
  const box = page.getByRole('textbox', { name: tr('ar', 'Message') });
  await box.fill('أهلا');
  await box.press('Enter');
  const messages = page.getByRole('list', { name: tr('ar', 'Messages') });
  await expect(messages.getByRole('listitem')).toHaveCount(1);
  // Delivered, not just echoed: the reloads below would drop a message still on its way.
  await expect(messages.getByText(tr('ar', 'Sending...'))).toHaveCount(0);
  await expect(messages.getByText(tr('ar', 'Failed to send'))).toHaveCount(0);
  await expect(messages.getByText('أهلا')).toBeVisible();
  await shootBoth(page, 'language-ar-chat', () =>
    page
      .getByRole('list', { name: tr('ar', 'Messages') })
      .getByRole('listitem')
      .first(),
  );
  expect(errors).toEqual([]);
  await context.close();
  await friendContext.close();
  expect(member.id).toBeTruthy();
});

test('a member’s language setting follows them to a new browser', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await newContextIn(browser, 'en-US');
  const member = await registerOverApi(context, 'deutsch');
  const page = await context.newPage();
  await page.goto('/settings');
  const select = page.getByRole('combobox', { name: 'Language' });
  await expect(async () => {
    await select.selectOption('de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de', { timeout: 2_000 });
  }).toPass();
  // Saved on the account: the session says so.
  await expect
    .poll(
      async () =>
        ((await (await context.request.get('/api/settings')).json()) as { language: string }).language,
    )
    .toBe('de');
  await shootBoth(page, 'language-de-settings', () =>
    page.getByRole('combobox', { name: tr('de', 'Language') }),
  );
  await context.close();

  // Another browser, English by its own settings: signing in brings German.
  const other = await newContextIn(browser, 'en-US');
  const otherPage = await other.newPage();
  await loginViaUi(otherPage, member);
  await expect(otherPage.locator('html')).toHaveAttribute('lang', 'de');
  await expect(
    otherPage.getByRole('navigation', { name: tr('de', 'Main navigation') }).getByRole('link', {
      name: tr('de', 'Home'),
    }),
  ).toBeVisible();
  // And the next page starts in it.
  const next = await otherPage.goto('/search');
  expect(await next?.text()).toContain('<html lang="de"');
  await other.close();
});

test('the other main screens in German and Arabic: right words, laid out, nothing English left', async ({
  browser,
}) => {
  test.setTimeout(420_000);
  const friendContext = await newContextIn(browser, 'en-US');
  const friend = await registerOverApi(friendContext, 'freund');
  const words = `kubus ${Date.now().toString(36)}`;
  await postOverApi(friendContext.request, '/api/posts', { content: `مكعب ${words}` });

  for (const lang of ['de', 'ar'] as const) {
    const context = await newContextIn(browser, 'en-US');
    const member = await registerOverApi(context, `screens${lang}`);
    // The member's language, on their account: the app follows it on every page.
    const saved = await context.request.put('/api/settings', { data: { language: lang } });
    expect(saved.ok(), await saved.text()).toBe(true);
    // Something to be told about: the friend follows the member and likes their post.
    const { post } = (await postOverApi(context.request, '/api/posts', { content: `${lang} ${words}` })) as {
      post: { id: string };
    };
    await postOverApi(friendContext.request, `/api/users/${member.id}/follow`, {});
    await postOverApi(friendContext.request, `/api/posts/${post.id}/like`, {});

    const page = await context.newPage();
    const errors = await watchErrors(page);
    const screens: [string, string, () => Locator][] = [
      ['search', `/search?q=${encodeURIComponent(words)}`, () => page.getByRole('article').first()],
      ['gallery', '/gallery', () => page.getByRole('heading', { level: 1 })],
      ['profile', `/profile/${friend.username}`, () => page.getByRole('heading', { level: 1 })],
      ['notifications', '/notifications', () => page.getByRole('main').getByText(friend.username).first()],
      ['cubey', '/cubes', () => page.getByRole('heading', { level: 1 })],
      ['settings', '/settings', () => page.getByRole('combobox', { name: tr(lang, 'Language') })],
    ];
    for (const [name, url, ready] of screens) {
      await page.goto(url);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
      await expect(ready()).toBeVisible();
      await shootBoth(page, `language-${lang}-${name}`, ready, { justOpened: true });
      expect.soft(await englishLeft(page, lang), `English left on ${lang} ${name}`).toEqual([]);
    }
    expect(errors).toEqual([]);
    await context.close();
  }
  await friendContext.close();
});
