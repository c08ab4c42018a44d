import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { baseURL, suiteServer, WORKERS } from './servers';

export { baseURL };

/**
 * Debian's chromium binary itself, not /usr/bin/chromium: that script adds the desktop's flags, and
 * one of them (--enable-gpu-rasterization) makes SwiftShader, the software GPU, draw every frame;
 * the suite ran 5–10 % slower through it.
 */
const DEBIAN_CHROMIUM = '/usr/lib/chromium/chromium';
const chromium =
  process.env.CHROMIUM_PATH ?? (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : '/usr/bin/chromium');

export default defineConfig({
  testDir: './tests',
  outputDir: './test-output',
  // A spec's tests run in order, one spec per worker at a time; each worker has a server of its
  // own (servers.ts, where the number of workers is chosen and why).
  fullyParallel: false,
  workers: WORKERS,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // A test's ceiling, not its pace: every wait is for a signal. Many screens' tests take 15-25 s on
  // two workers here (screenshots and axe at two widths in both themes), and one at 24 s took 35 s
  // in a fresh-clone CI run while the machine was busier (profile-settings' refused upload).
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    baseURL,
    // A trace records every action's DOM and a screencast: on this 2-core machine that was about a
    // third of the suite's time (search + bookmarks specs: 78 s with traces, 55 s without). CI keeps
    // the failure's screenshot and error context; run the spec locally (no CI) for its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
        // Chromium 156 builds each new window's address-bar popup as a hidden WebUI page, two
        // renderers of its own that no test ever sees: 1.76 s of Chromium's CPU per new context
        // and page with them, 0.42 s without (bench/README.md, "A page costs Chromium its address
        // bar").
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: Array.from({ length: WORKERS }, (_, slot) => {
    const { port, url, dataDir } = suiteServer(slot);
    return {
      command: 'node serve.mjs',
      url: `${url}/api/health`,
      env: { PORT: String(port), E2E_DATA_DIR: dataDir },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe' as const,
      stderr: 'pipe' as const,
    };
  }),
});
