/**
 * axe-core over the main screens, logged out and logged in, in both themes and at 1280 and 390 px:
 * no serious or critical violation, and no break of ARIA's validity rules at any impact
 * (ARIA_RULES). The experimental rules run too (label-content-name-mismatch
 * is one of them: a visible label must be part of the accessible name). Each screen is opened as
 * a member would, then checked in both themes and at both widths, as two pairs that alternate
 * from screen to screen (light 1280 and dark 390, then dark 1280 and light 390), so every pair of
 * theme and width is covered across the screens at half the cost of four checks per screen (axe
 * over a full feed takes seconds). A failure lists every node with its rule, impact and selector.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  axe,
  CONTEXT,
  DESKTOP,
  MOBILE,
  setThemeViaUi,
  signUp,
  snap,
  uniqueUser,
  withEverythingDrawn,
} from './helpers';

interface Found {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  target: string;
  summary: string;
}

/**
 * Rules failed at any impact: ARIA's own validity, which axe rates minor or moderate but
 * Lighthouse's accessibility score counts (a textarea given `role="combobox"` took member `/`
 * below 100).
 */
const ARIA_RULES = new Set([
  'aria-allowed-role',
  'aria-allowed-attr',
  'aria-prohibited-attr',
  'aria-valid-attr-value',
]);

/** Runs axe on what the page shows now; serious and critical findings and ARIA_RULES', one row per node. */
async function check(page: Page, screen: string): Promise<Found[]> {
  const result = await withEverythingDrawn(page, () => axe(page).analyze());
  const found = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || ARIA_RULES.has(v.id))
    .flatMap((v) =>
      v.nodes.map((n) => ({
        screen,
        rule: v.id,
        impact: v.impact ?? '',
        help: v.help,
        target: n.target.join(' '),
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
      })),
    );
  // Seen as the run goes, not only at its end.
  if (found.length > 0) console.log(report(found));
  return found;
}

/** Two frames, so a theme or size change is painted before axe reads colours. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

const WAYS = [
  [
    ['light', '1280', DESKTOP],
    ['dark', '390', MOBILE],
  ],
  [
    ['dark', '1280', DESKTOP],
    ['light', '390', MOBILE],
  ],
] as const;
/** Which pair of WAYS the next screen gets; each screen takes the other pair from the last one. */
let nextWays = 0;

/**
 * `open` brings the screen up (again after each size change, for menus and dialogs that close);
 * it is checked in both themes, at both widths (a pair of WAYS), and photographed.
 */
async function everyWay(
  page: Page,
  name: string,
  open: () => Promise<void>,
  found: Found[],
  { reopen = false } = {},
): Promise<void> {
  const ways = WAYS[nextWays++ % WAYS.length]!;
  for (const [i, [theme, width, viewport]] of ways.entries()) {
    await page.setViewportSize(viewport);
    // A visitor's first screen opens on a blank page, which has no theme button yet.
    if (i === 0 && !reopen) await open();
    await setThemeViaUi(page, theme);
    if (reopen) await open();
    await settle(page);
    found.push(...(await check(page, `${name} ${theme} ${width}`)));
    // What the window shows (a full-page capture of a long feed costs more than the check).
    await snap(page, `a11y-${name}-${theme}-${width}`);
    if (reopen) await page.keyboard.press('Escape');
  }
  await page.setViewportSize(DESKTOP);
  await setThemeViaUi(page, 'light');
}

function report(found: Found[]): string {
  return found.map((f) => `${f.screen}: ${f.rule} (${f.impact}) ${f.target}\n    ${f.summary}`).join('\n');
}

/** A visitor's page, a way to open a path on it, what axe found, and the end of the test. */
async function visitor(browser: Browser) {
  const context = await browser.newContext(CONTEXT);
  const page = await context.newPage();
  const found: Found[] = [];
  const visit = (path: string, ready: () => Promise<void>) => async () => {
    await page.goto(path);
    await ready();
  };
  return {
    page,
    found,
    visit,
    done: async () => {
      await context.close();
      expect(found, report(found)).toEqual([]);
    },
  };
}

/** A newly registered member's page, what axe found on it, and the end of the test. */
async function member(browser: Browser) {
  const context = await browser.newContext(CONTEXT);
  const page = await context.newPage();
  const found: Found[] = [];
  await signUp(page, uniqueUser('axe'));
  return {
    page,
    found,
    done: async () => {
      await context.close();
      expect(found, report(found)).toEqual([]);
    },
  };
}

test.describe('accessibility (axe-core)', () => {
  // Each screen is checked twice; axe over a full feed takes seconds.
  test.describe.configure({ timeout: 300_000 });

  test('logged out: home, auth, search', async ({ browser }) => {
    const { page, found, visit, done } = await visitor(browser);
    await everyWay(
      page,
      'home-out',
      visit('/', () => expect(page.getByRole('article').first()).toBeVisible({ timeout: 20_000 })),
      found,
    );
    await everyWay(
      page,
      'auth',
      visit('/auth', () =>
        expect(page.getByRole('tabpanel', { name: 'Login' })).toBeVisible({ timeout: 20_000 }),
      ),
      found,
    );
    await everyWay(
      page,
      'search-out',
      visit('/search?q=cube', () =>
        expect(page.getByRole('tab', { name: 'All' })).toBeVisible({ timeout: 20_000 }),
      ),
      found,
    );
    await done();
  });

  test('logged out: gallery, a profile, not found', async ({ browser }) => {
    const { page, found, visit, done } = await visitor(browser);
    await everyWay(
      page,
      'gallery-out',
      visit('/gallery', () =>
        expect(page.getByRole('list', { name: 'Gallery items' }).getByRole('article').first()).toBeVisible(),
      ),
      found,
    );
    await everyWay(
      page,
      'profile-out',
      visit('/profile/alice', () =>
        expect(page.getByRole('heading', { name: 'Alice Cubeworth' })).toBeVisible({ timeout: 20_000 }),
      ),
      found,
    );
    await everyWay(
      page,
      'not-found',
      visit('/no-such-page', () =>
        expect(page.getByRole('heading').first()).toBeVisible({ timeout: 20_000 }),
      ),
      found,
    );
    await done();
  });

  test('logged in: feed with comments, account menu, notifications', async ({ browser }) => {
    const { page, found, done } = await member(browser);

    await everyWay(
      page,
      'home',
      async () => {
        await page.goto('/');
        await page.getByRole('tab', { name: 'Everyone' }).click();
        const card = page.getByRole('list', { name: 'Posts' }).getByRole('article').first();
        await card.getByRole('button', { name: /^Comments/ }).click();
        await expect(card.getByRole('region', { name: 'Comments' })).toBeVisible();
      },
      found,
    );
    await everyWay(
      page,
      'account-menu',
      async () => {
        await page.getByRole('button', { name: 'Account menu' }).click();
        await expect(page.getByRole('menu')).toBeVisible();
      },
      found,
      { reopen: true },
    );
    await everyWay(
      page,
      'notifications',
      async () => {
        // From md up the bell opens its popover; on a phone it opens the page (issue #46).
        if ((page.viewportSize()?.width ?? 1280) >= 768) {
          await page.getByRole('button', { name: /^Notifications/ }).click();
          await expect(page.getByRole('dialog').or(page.getByRole('menu'))).toBeVisible();
        } else {
          await page.getByRole('link', { name: 'Notifications', exact: true }).click();
          await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
        }
      },
      found,
      { reopen: true },
    );
    await done();
  });

  test('logged in: search tabs, gallery and its lightbox', async ({ browser }) => {
    const { page, found, done } = await member(browser);
    await everyWay(
      page,
      'search-posts',
      async () => {
        await page.goto('/search?q=cube&tab=posts');
        await expect(page.getByRole('tab', { name: 'Posts' })).toHaveAttribute('aria-selected', 'true');
      },
      found,
    );
    await everyWay(
      page,
      'search-suggested',
      async () => {
        await page.goto('/search');
        await expect(page.getByText('Suggested for you')).toBeVisible();
      },
      found,
    );
    await everyWay(
      page,
      'gallery',
      async () => {
        await page.goto('/gallery');
        await expect(
          page.getByRole('list', { name: 'Gallery items' }).getByRole('article').first(),
        ).toBeVisible();
      },
      found,
    );
    await everyWay(
      page,
      'lightbox',
      async () => {
        await page
          .getByRole('list', { name: 'Gallery items' })
          .getByRole('button', { name: /^View / })
          .first()
          .click();
        await expect(page.getByRole('dialog')).toBeVisible();
      },
      found,
      { reopen: true },
    );
    await done();
  });

  test('logged in: Cubey', async ({ browser }) => {
    const { page, found, done } = await member(browser);
    await everyWay(
      page,
      'cubes',
      async () => {
        await page.goto('/cubes');
        await expect(page.getByRole('heading').first()).toBeVisible({ timeout: 20_000 });
      },
      found,
    );
    await done();
  });

  test('logged in: profiles and chat', async ({ browser }) => {
    const { page, found, done } = await member(browser);
    await everyWay(
      page,
      'profile-other',
      async () => {
        await page.goto('/profile/alice');
        await expect(page.getByRole('heading', { name: 'Alice Cubeworth' })).toBeVisible();
      },
      found,
    );
    await everyWay(
      page,
      'chat',
      async () => {
        await page.getByRole('button', { name: 'Message' }).click();
        const thread = page.getByRole('region', { name: 'Thread' });
        const box = thread.getByRole('textbox', { name: 'Message' });
        await box.fill('Hello from the accessibility check');
        await box.press('Enter');
        await expect(thread.getByText('Sent')).toBeVisible();
      },
      found,
    );
    await done();
  });

  test('logged in: own profile, settings', async ({ browser }) => {
    const { page, found, done } = await member(browser);
    await everyWay(
      page,
      'profile-own',
      async () => {
        await page.goto('/profile');
        await expect(page.getByRole('heading').first()).toBeVisible({ timeout: 20_000 });
      },
      found,
    );
    await everyWay(
      page,
      'settings',
      async () => {
        await page.goto('/settings');
        await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
      },
      found,
    );
    await done();
  });
});
