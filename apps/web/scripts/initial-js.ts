/**
 * The first page's JavaScript, as a browser receives it (Brotli: the build's `.br` copies, which
 * the server sends to every browser that accepts br), from the built app
 * (dist/.vite/manifest.json): the entry with everything it imports statically (what index.html
 * loads and preloads), plus the chunks the home page asks for as soon as it renders (the
 * composer), and the classic scripts of public/ a first page runs (theme-init.js on every page,
 * with the worker it starts, intl-warmup.js; start-after-paint.js on a visitor's page rendered on
 * the server). Prints each file (Brotli, gzip
 * and raw) and the totals, and fails when the Brotli
 * total is above the budget (INITIAL_JS_BUDGET_KB, default 152). Run after `vite build`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { staticClosure } from '../build/chunk-graph.ts';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const budgetKb = Number(process.env.INITIAL_JS_BUDGET_KB ?? 152);

/** The bytes sent for `file` with Content-Encoding: br (its `.br` copy; compressed here if none). */
function brotliSize(file: string, bytes: Buffer): number {
  const copy = path.join(dist, `${file}.br`);
  if (existsSync(copy)) return readFileSync(copy).length;
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  }).length;
}
/** Lazy modules the home page ("/") imports on its first render, by source path. */
const HOME_ON_RENDER = ['src/features/posts/composer.tsx'];

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean };
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
if (!entryKey) throw new Error('no entry in the manifest: run vite build first');

const importsOf = (key: string) => manifest[key]?.imports;
const keys = staticClosure(entryKey, importsOf);
for (const source of HOME_ON_RENDER) {
  if (!manifest[source])
    throw new Error(`${source} is not a chunk of its own any more: update HOME_ON_RENDER`);
  staticClosure(source, importsOf, keys);
}

/** public/'s classic scripts (and the worker theme-init.js starts), copied as they are into dist/. */
const CLASSIC_SCRIPTS = ['theme-init.js', 'intl-warmup.js', 'start-after-paint.js'];

let total = 0;
let totalGzip = 0;
const rows = [...[...keys].map((key) => manifest[key]!.file), ...CLASSIC_SCRIPTS].map((file) => {
  const bytes = readFileSync(path.join(dist, file));
  const br = brotliSize(file, bytes);
  const gzip = gzipSync(bytes, { level: 9 }).length;
  total += br;
  totalGzip += gzip;
  return { file, raw: bytes.length, br, gzip };
});
rows.sort((a, b) => b.br - a.br);
const kb = (n: number) => (n / 1024).toFixed(1);
for (const row of rows)
  console.log(
    `${kb(row.br).padStart(7)} KB br  ${kb(row.gzip).padStart(7)} KB gzip  ${kb(row.raw).padStart(7)} KB  ${row.file}`,
  );
console.log(
  `initial page JS: ${kb(total)} KB brotli (${kb(totalGzip)} KB gzip) in ${rows.length} files (budget ${budgetKb} KB brotli)`,
);
if (total > budgetKb * 1024) {
  console.error(`over budget by ${kb(total - budgetKb * 1024)} KB`);
  process.exit(1);
}
