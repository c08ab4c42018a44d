/**
 * "Download my data" for a member with many large uploads: the real app (src/upload.server.ts:
 * the local driver in a temp directory) builds the export while its RSS is sampled.
 *   pnpm --filter @cubes/bench bench:export      (BENCH_EXPORT_UPLOADS=500, BENCH_EXPORT_MB=5)
 * The uploads (random, incompressible bytes, like images) are written straight through the
 * storage driver with their rows; no image processing. Prints the build time and the server's
 * RSS before, its peak while building (sampled every 10 ms) and the kernel's VmHWM, then the
 * same while the zip is downloaded; `unzip -tq` checks the archive when unzip is installed.
 * Needs uploads × size of free disk twice over (the files and the zip). Writes
 * bench/results/export.json.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createLocalStorage } from '@cubes/storage';
import pg from 'pg';
import { benchDatabase } from './database.js';
import { startUploadChild } from './upload.child.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const uploads = Number(process.env.BENCH_EXPORT_UPLOADS ?? 500);
const sizeMb = Number(process.env.BENCH_EXPORT_MB ?? 5);
const log = (s: string) => console.log(s);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

const { pgServer, url: dbUrl } = await benchDatabase('cubes_export_bench', { fresh: true });

const child = await startUploadChild(dbUrl);
const { ask, vmHwm } = child;
const app = child.address;
const root = child.root;

try {
  const register = await fetch(`${app}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'exporter',
      email: 'exporter@bench.local',
      password: 'bench-password',
      displayName: 'Exporter',
    }),
  });
  if (register.status !== 201) throw new Error(`register: ${register.status} ${await register.text()}`);
  const cookie = register.headers.get('set-cookie')!.split(';')[0]!;
  const userId = ((await register.json()) as { user: { id: string } }).user.id;

  // --- the member's uploads: files through the driver, rows straight into the table ------------
  const t0 = performance.now();
  const storage = createLocalStorage({ root, secret: 'b'.repeat(64) });
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  for (let i = 0; i < uploads; i += 1) {
    const key = `uploads/${randomUUID()}`;
    const bytes = randomBytes(sizeMb * 1024 * 1024);
    await storage.put(key, bytes, 'image/jpeg');
    await db.query(
      `insert into uploaded_objects (key, owner_id, content_type, size, visibility, width, height, created_at)
         values ($1, $2, 'image/jpeg', $3, 'public', 1000, 1000, now() + make_interval(secs => $4))`,
      [key, userId, bytes.length, i / 1000],
    );
  }
  await db.end();
  log(`${uploads} uploads of ${sizeMb} MB written in ${Math.round((performance.now() - t0) / 1000)} s`);

  // --- the export ---------------------------------------------------------------------------------
  const before = await ask('reset');
  const hwmBefore = vmHwm();
  const t1 = performance.now();
  const started = await fetch(`${app}/api/account/export`, { method: 'POST', headers: { cookie } });
  if (started.status !== 202) throw new Error(`export: ${started.status} ${await started.text()}`);
  type ExportState = { status: string; downloadUrl: string | null; size: number | null };
  let state: ExportState | null = null;
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const res = await fetch(`${app}/api/account/export`, { headers: { cookie } });
    state = (await res.json()) as ExportState | null;
    if (state?.status === 'done' || state?.status === 'failed') break;
  }
  const buildMs = Math.round(performance.now() - t1);
  const built = await ask('rss');
  const hwmBuilt = vmHwm();
  if (state?.status !== 'done') throw new Error(`export ${state?.status}`);

  // --- the download -------------------------------------------------------------------------------
  const beforeDownload = await ask('reset');
  const zipFile = path.join(root, 'downloaded.zip');
  const t2 = performance.now();
  const download = await fetch(`${app}${state.downloadUrl}`, { headers: { cookie } });
  if (download.status !== 200 || !download.body) throw new Error(`download: ${download.status}`);
  await pipeline(
    Readable.fromWeb(download.body as import('node:stream/web').ReadableStream),
    createWriteStream(zipFile),
  );
  const downloadMs = Math.round(performance.now() - t2);
  const downloaded = await ask('rss');
  const hwmDownloaded = vmHwm();

  let verified = 'not checked (no unzip)';
  if (existsSync('/usr/bin/unzip')) {
    execFileSync('/usr/bin/unzip', ['-tq', zipFile], { stdio: 'pipe' });
    const names = execFileSync('/usr/bin/unzip', ['-Z1', zipFile], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const files = names.split('\n').filter((n) => n.startsWith('uploads/')).length;
    if (files !== uploads) throw new Error(`${files} uploads in the zip, expected ${uploads}`);
    verified = `unzip -t: no errors, ${files} uploads`;
  }
  rmSync(zipFile, { force: true });

  const result = {
    uploads,
    sizeMb,
    zipMb: mb(state.size ?? 0),
    buildMs,
    rssBeforeMb: mb(before.peak!),
    peakRssBuildMb: mb(built.peak!),
    vmHwmBeforeMb: mb(hwmBefore),
    vmHwmAfterBuildMb: mb(hwmBuilt),
    downloadMs,
    rssBeforeDownloadMb: mb(beforeDownload.peak!),
    peakRssDownloadMb: mb(downloaded.peak!),
    vmHwmAfterDownloadMb: mb(hwmDownloaded),
    verified,
  };
  log(
    `export of ${uploads} uploads of ${sizeMb} MB: a ${result.zipMb} MB zip in ${(buildMs / 1000).toFixed(1)} s`,
  );
  log(
    `  server RSS while building:    ${result.rssBeforeMb} MB before, peak ${result.peakRssBuildMb} MB (VmHWM ${result.vmHwmBeforeMb} → ${result.vmHwmAfterBuildMb} MB)`,
  );
  log(
    `  server RSS while downloading: ${result.rssBeforeDownloadMb} MB before, peak ${result.peakRssDownloadMb} MB (VmHWM ${result.vmHwmAfterDownloadMb} MB), ${(downloadMs / 1000).toFixed(1)} s`,
  );
  log(`  archive: ${verified}`);
  mkdirSync(path.join(benchDir, 'results'), { recursive: true });
  writeFileSync(path.join(benchDir, 'results', 'export.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await child.stop(); // the server removes its storage directory
  await pgServer.stop();
}
