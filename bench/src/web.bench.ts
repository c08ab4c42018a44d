/**
 * Lighthouse over the production web app:
 *   pnpm --filter @cubes/bench bench:web
 * Starts the real server (NODE_ENV=production: built web app + API + embedded PostgreSQL with the
 * demo community) on a fresh data directory, registers a member, and runs Lighthouse (npm
 * `lighthouse`, driving Debian's Chromium through chrome-launcher) over / , /search, /gallery and
 * /cubes as a visitor and / and /chat as that member (the session cookie sent as a header), with
 * the mobile and desktop presets. Prints the median of BENCH_WEB_RUNS (3) runs of each figure:
 * scores (performance, accessibility, best practices, SEO) and FCP, LCP, TBT, CLS, TTI.
 * A figure, not a test: it never fails on a score.
 *
 * CHROME_PATH (default /usr/bin/chromium); BENCH_WEB_PORT (3905); BENCH_WEB_ONLY=mobile|desktop;
 * BENCH_WEB_PAGES=/,/search (visitor pages only; the member's pages go with "member:/chat").
 * BENCH_WEB_REPORTS=<dir> keeps each run's whole Lighthouse result there (JSON), for its
 * diagnostics (bootup time per script, main-thread work, long tasks).
 * BENCH_WEB_THROTTLING=devtools: Lighthouse slows the page for real (the same network and 4× CPU,
 * applied by DevTools) instead of simulating them from one fast load, its "applied" throttling.
 * The simulation multiplies whatever else this shared machine did during that load; applied
 * throttling measures the page's own time, at the cost of slower runs.
 * BENCH_WEB_CPU: the CPU slowdown of the mobile preset. Unset, Lighthouse's own 4×, which its
 * docs (docs/throttling.md, "Calibrating the CPU slowdown") mean for a high-end desktop
 * (benchmarkIndex 1,500–2,000). A number sets it; "calibrated" takes it from this machine's
 * benchmarkIndex, read from one Lighthouse run before the measured ones, by the formula of
 * Lighthouse's CPU slowdown calculator (cpuSlowdownFor below). Every run prints the
 * benchmarkIndex it measured and the slowdown it used.
 * Builds the web app first if apps/web/dist is missing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { median } from './stats.js';
import { memberCookie, resolvePage, startWebServer, WEB_PAGES } from './web-server.js';

const port = Number(process.env.BENCH_WEB_PORT ?? 3905);
const runs = Number(process.env.BENCH_WEB_RUNS ?? 3);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const presets = (['mobile', 'desktop'] as const).filter(
  (preset) => !process.env.BENCH_WEB_ONLY || process.env.BENCH_WEB_ONLY === preset,
);
const pages = process.env.BENCH_WEB_PAGES?.split(',') ?? WEB_PAGES;
const throttling = process.env.BENCH_WEB_THROTTLING as Flags['throttlingMethod'] | undefined;
if (throttling && !['simulate', 'devtools', 'provided'].includes(throttling))
  throw new Error(`BENCH_WEB_THROTTLING: simulate, devtools or provided, not ${throttling}`);
const cpu = process.env.BENCH_WEB_CPU;
if (cpu && cpu !== 'calibrated' && !(Number(cpu) >= 1 && Number(cpu) <= 20))
  throw new Error(`BENCH_WEB_CPU: "calibrated" or a slowdown from 1 to 20, not ${cpu}`);
const reports = process.env.BENCH_WEB_REPORTS ? path.resolve(process.env.BENCH_WEB_REPORTS) : null;
const log = (s: string) => console.log(s);

// --- Lighthouse ----------------------------------------------------------------------------
/**
 * The CPU slowdown that brings a machine of this benchmarkIndex to the phone Lighthouse's mobile
 * preset stands for: the piecewise line of Lighthouse's CPU slowdown calculator
 * (lighthouse-cpu-throttling-calculator.vercel.app, linked from Lighthouse's docs/throttling.md):
 * 150 → 1×, 800 → 2×, 1,300 → 3×, then one more for every 233 (1,533 → 4×, 2,000 → 6×).
 */
function cpuSlowdownFor(benchmarkIndex: number): number {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  return Math.max(1, 1 + (benchmarkIndex - 150) / 650);
}

interface Figures {
  perf: number;
  a11y: number;
  bp: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  tti: number;
}

/** Each run's benchmarkIndex (Lighthouse's own CPU benchmark), for the footer. */
const benchmarkIndexes: number[] = [];

async function audit(
  chromePort: number,
  url: string,
  preset: 'mobile' | 'desktop',
  cookie?: string,
  cpuSlowdownMultiplier?: number,
) {
  const flags: Flags = {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    ...(throttling ? { throttlingMethod: throttling } : {}),
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    // Mobile only: the desktop preset's own slowdown is 1× (no throttling of the CPU).
    ...(preset === 'mobile' && cpuSlowdownMultiplier ? { throttling: { cpuSlowdownMultiplier } } : {}),
  };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) return null; // a failed trace (NO_NAVSTART and the like): the caller runs it again
  if (reports) {
    mkdirSync(reports, { recursive: true });
    const name = `${preset}${new URL(url).pathname.replaceAll('/', '_')}${cookie ? '-member' : ''}-${Date.now()}.json`;
    writeFileSync(path.join(reports, name), JSON.stringify(result.lhr));
  }
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const value = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  const failing = Object.values(categories)
    .flatMap((category) => category.auditRefs)
    .filter((ref) => ref.weight > 0)
    .map((ref) => audits[ref.id]!)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
    .map((a) => a.id);
  const figures: Figures = {
    perf: score('performance'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    seo: score('seo'),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    tti: value('interactive'),
  };
  benchmarkIndexes.push(result.lhr.environment.benchmarkIndex);
  // A member page that sent the visitor to /auth would measure the wrong page.
  const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
  if (landed !== new URL(url).pathname) throw new Error(`${url} landed on ${landed}`);
  // What the console said, when best practices marked it down for that.
  const consoleErrors = audits['errors-in-console']?.details;
  if (consoleErrors?.type === 'table' && consoleErrors.items.length > 0)
    log(
      `  ${url} (${preset}) console: ${consoleErrors.items.map((item) => `${item.description} ${item.sourceLocation ? JSON.stringify(item.sourceLocation) : ''}`).join(' | ')}`,
    );
  return { figures, failing, benchmarkIndex: result.lhr.environment.benchmarkIndex };
}

const origin = await startWebServer(port);
const cookie = pages.some((page) => page.startsWith('member:')) ? await memberCookie(origin) : undefined;
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    // Nothing but this machine: Chromium's own calls to update servers go nowhere.
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
  ],
});

// "calibrated": one unmeasured run of the first page reads this machine's benchmarkIndex.
let cpuSlowdown = cpu && cpu !== 'calibrated' ? Number(cpu) : undefined;
if (cpu === 'calibrated' && presets.includes('mobile')) {
  const first = pages[0]!;
  const member = first.startsWith('member:');
  const pathname = await resolvePage(origin, member ? first.slice('member:'.length) : first);
  const probe = await audit(chrome.port, `${origin}${pathname}`, 'mobile', member ? cookie : undefined);
  if (!probe) throw new Error('calibration: Lighthouse gave no result');
  cpuSlowdown = Math.round(cpuSlowdownFor(probe.benchmarkIndex) * 10) / 10;
  log(`benchmarkIndex ${Math.round(probe.benchmarkIndex)}: mobile CPU slowdown ${cpuSlowdown}×`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rows: string[] = [];
const header =
  '| preset  | page            | perf | a11y | BP  | SEO | FCP    | LCP    | TBT     | CLS   | TTI    | below 0.9 (any run) |';
try {
  for (const preset of presets) {
    for (const page of pages) {
      const member = page.startsWith('member:');
      const pathname = await resolvePage(origin, member ? page.slice('member:'.length) : page);
      const all: Figures[] = [];
      const failing = new Set<string>();
      for (let run = 0; run < runs; run++) {
        let result = null;
        for (let attempt = 0; attempt < 3 && !result; attempt++)
          result = await audit(
            chrome.port,
            `${origin}${pathname}`,
            preset,
            member ? cookie : undefined,
            cpuSlowdown,
          );
        if (!result) throw new Error(`${pathname}: Lighthouse failed three times`);
        all.push(result.figures);
        for (const id of result.failing) failing.add(id);
      }
      const m = (key: keyof Figures) => median(all.map((figures) => figures[key]));
      const label = `${page.startsWith('/posts/') ? '/posts/{id}' : pathname}${member ? ' (member)' : ''}`;
      const row = `| ${preset.padEnd(7)} | ${label.padEnd(15)} | ${String(m('perf')).padStart(4)} | ${String(m('a11y')).padStart(4)} | ${String(m('bp')).padStart(3)} | ${String(m('seo')).padStart(3)} | ${seconds(m('fcp')).padStart(6)} | ${seconds(m('lcp')).padStart(6)} | ${`${Math.round(m('tbt'))} ms`.padStart(7)} | ${m('cls').toFixed(3)} | ${seconds(m('tti')).padStart(6)} | ${[...failing].join(', ')} |`;
      rows.push(row);
      log(row);
    }
  }
} finally {
  await chrome.kill();
}
const indexes = benchmarkIndexes.filter(Number.isFinite).map(Math.round);
log(
  `\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, ${throttling === 'devtools' ? 'applied throttling' : 'simulated throttling'}, mobile CPU slowdown ${cpuSlowdown ?? 4}×${cpu === 'calibrated' ? ' (calibrated)' : ''}, median of ${runs} runs, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, benchmarkIndex ${Math.min(...indexes)}–${Math.max(...indexes)} (Lighthouse's calculator: ${cpuSlowdownFor(median(indexes)).toFixed(1)}×)`,
);
log(header);
log(
  `|${header
    .slice(1, -1)
    .split('|')
    .map((cell) => '-'.repeat(cell.length))
    .join('|')}|`,
);
for (const row of rows) log(row);
process.exit(0);
