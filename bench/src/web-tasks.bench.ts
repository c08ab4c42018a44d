/**
 * The main thread's long frames as a phone's page loads, without Lighthouse:
 *   pnpm --filter @cubes/bench bench:web-tasks
 * Lighthouse's mobile figures simulate a 4×-slower CPU by multiplying what one loaded run took, so
 * on this shared 2-core machine whatever else ran in that moment (its own tracing, the server, other
 * work) is multiplied too: one page's Total Blocking Time ranged over 2× between runs. This bench
 * slows Chromium's CPU 4× for real (DevTools' CPU throttling), loads each page BENCH_WEB_RUNS (5)
 * times in a fresh phone-sized context (no cache, no service worker, no network throttling), and
 * reads the page's own Long Animation Frames: their blocking time after first paint (what TBT
 * counts), the longest frame and the script that ran in it. Prints the medians. A figure, not a test.
 *
 * Same server and pages as bench:web (web-server.ts). CHROME_PATH (default /usr/bin/chromium);
 * BENCH_WEB_PORT (3906); BENCH_WEB_PAGES=/,member:/chat; BENCH_WEB_RUNS (5).
 */
import os from 'node:os';
import { chromium } from 'playwright-core';
import { median } from './stats.js';
import { memberCookie, resolvePage, startWebServer, WEB_PAGES } from './web-server.js';

const port = Number(process.env.BENCH_WEB_PORT ?? 3906);
const runs = Number(process.env.BENCH_WEB_RUNS ?? 5);
const pages = process.env.BENCH_WEB_PAGES?.split(',') ?? WEB_PAGES;
/** What Lighthouse's mobile preset assumes of a mid-range phone against a desktop CPU. */
const CPU_SLOWDOWN = 4;
/** Long enough after `load` for the first answers, their renders and the deferred lists. */
const SETTLE_MS = 6000;

interface Frame {
  start: number;
  duration: number;
  blocking: number;
  /** the script that ran longest in the frame: its invoker and function */
  script: string;
}
interface Load {
  fcp: number;
  lcp: number;
  frames: Frame[];
}

const origin = await startWebServer(port);
const cookie = pages.some((page) => page.startsWith('member:')) ? await memberCookie(origin) : undefined;
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
  ],
});

async function load(pathname: string, member: boolean): Promise<Load> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  try {
    if (member && cookie)
      await context.addCookies(
        cookie.split('; ').map((pair) => {
          const [name = '', value = ''] = pair.split('=');
          return { name, value, url: origin };
        }),
      );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript(() => {
      const w = window as unknown as { __frames: unknown[]; __lcp: number };
      w.__frames = [];
      w.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as {
          startTime: number;
          duration: number;
          blockingDuration: number;
          scripts: { invoker: string; sourceURL: string; duration: number }[];
        }[]) {
          const top = [...entry.scripts].sort((a, b) => b.duration - a.duration)[0];
          w.__frames.push({
            start: entry.startTime,
            duration: entry.duration,
            blocking: entry.blockingDuration,
            // e.g. "MessagePort.onmessage in index-….js" (React's scheduler: a background render
            // or its commit), "TimerHandler:setTimeout in trpc-….js" (TanStack Query's notify: a
            // store update, rendered in one go)
            script: top
              ? `${top.invoker.split('?')[0]} in ${top.sourceURL
                  .split('/')
                  .pop()
                  ?.replace(/-[\w-]{8}\.js$/, '-….js')}`
              : 'style, layout, paint',
          });
        }
      }).observe({ type: 'long-animation-frame', buffered: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__lcp = entry.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.goto(`${origin}${pathname}`, { waitUntil: 'load' });
    await page.waitForTimeout(SETTLE_MS);
    const landed = new URL(page.url());
    if (landed.pathname + landed.search !== pathname) throw new Error(`${pathname} landed on ${landed}`);
    return await page.evaluate(() => {
      const w = window as unknown as { __frames: Frame[]; __lcp: number };
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
      return { fcp, lcp: w.__lcp, frames: w.__frames };
    });
  } finally {
    await context.close();
  }
}

const header =
  '| page            | FCP     | LCP     | blocking after FCP | longest frame | what ran longest in it (median run) |';
const rows: string[] = [];
try {
  for (const entry of pages) {
    const member = entry.startsWith('member:');
    const pathname = await resolvePage(origin, member ? entry.slice('member:'.length) : entry);
    const loads: { fcp: number; lcp: number; blocking: number; longest: Frame | undefined }[] = [];
    for (let run = 0; run < runs; run++) {
      const { fcp, lcp, frames } = await load(pathname, member);
      const after = frames.filter((frame) => frame.start + frame.duration > fcp);
      const longest = [...after].sort((a, b) => b.blocking - a.blocking)[0];
      loads.push({ fcp, lcp, blocking: after.reduce((sum, frame) => sum + frame.blocking, 0), longest });
    }
    const byBlocking = [...loads].sort((a, b) => a.blocking - b.blocking);
    const middle = byBlocking[Math.floor(byBlocking.length / 2)]!;
    const ms = (value: number) => `${Math.round(value)} ms`;
    const row = `| ${`${pathname}${member ? ' (member)' : ''}`.padEnd(15)} | ${ms(median(loads.map((l) => l.fcp))).padStart(7)} | ${ms(median(loads.map((l) => l.lcp))).padStart(7)} | ${`${ms(middle.blocking)} (${ms(byBlocking[0]!.blocking)}–${ms(byBlocking.at(-1)!.blocking)})`.padEnd(18)} | ${ms(median(loads.map((l) => l.longest?.blocking ?? 0))).padStart(13)} | ${middle.longest?.script ?? '-'} |`;
    rows.push(row);
    console.log(row);
  }
} finally {
  await browser.close();
}
console.log(
  `\n${runs} loads a page, CPU ${CPU_SLOWDOWN}× slower, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`,
);
console.log(header);
console.log(
  `|${'-'.repeat(17)}|${'-'.repeat(9)}|${'-'.repeat(9)}|${'-'.repeat(20)}|${'-'.repeat(15)}|${'-'.repeat(37)}|`,
);
for (const row of rows) console.log(row);
process.exit(0);
