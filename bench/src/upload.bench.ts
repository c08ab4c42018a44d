/**
 * Uploads through the local driver: 200 concurrent 1 MB uploads (upload URL, then the signed
 * PUT streamed to disk) against the real app in a child process.
 *   pnpm --filter @cubes/bench bench:upload      (BENCH_UPLOADS=200, BENCH_UPLOAD_MB=1)
 * Prints MB/s of the PUT phase, the time to hand out the URLs, and the server's peak RSS
 * (sampled every 10 ms in the child, and the kernel's VmHWM); writes bench/results/upload.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabase } from './database.js';
import { startUploadChild } from './upload.child.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const uploads = Number(process.env.BENCH_UPLOADS ?? 200);
const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 1);
const log = (s: string) => console.log(s);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

// --- a fresh database in the benchmark's embedded PostgreSQL -------------------------------
const { pgServer, url: dbUrl } = await benchDatabase('cubes_upload_bench', { fresh: true });

// --- the server --------------------------------------------------------------------------------
const child = await startUploadChild(dbUrl);
const { ask } = child;
const app = child.address;

const register = await fetch(`${app}/api/auth/register`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    username: 'uploader',
    email: 'uploader@bench.local',
    password: 'bench-password',
    displayName: 'Uploader',
  }),
});
if (register.status !== 201) throw new Error(`register: ${register.status} ${await register.text()}`);
const cookie = register.headers.get('set-cookie')!.split(';')[0]!;

// One body for every upload (different bytes per upload would only measure randomBytes).
const body = randomBytes(sizeMb * 1024 * 1024);
const before = await ask('reset');

// --- upload URLs, then 200 concurrent PUTs ------------------------------------------------------
const t0 = performance.now();
const urls = await Promise.all(
  Array.from({ length: uploads }, async () => {
    const res = await fetch(`${app}/api/objects/upload`, { method: 'POST', headers: { cookie } });
    if (res.status !== 200) throw new Error(`upload URL: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { uploadURL: string }).uploadURL;
  }),
);
const t1 = performance.now();
const statuses = await Promise.all(
  urls.map(async (url) => (await fetch(`${app}${url}`, { method: 'PUT', body })).status),
);
const t2 = performance.now();
const failed = statuses.filter((s) => s !== 200).length;

const rss = await ask('rss');
const vmHwmBytes = child.vmHwm();
await child.stop();
await pgServer.stop();

const totalBytes = body.length * uploads;
const putSeconds = (t2 - t1) / 1000;
const result = {
  uploads,
  sizeMb,
  failed,
  uploadUrlMs: Math.round(t1 - t0),
  putMs: Math.round(t2 - t1),
  putMBps: Math.round((totalBytes / 1024 / 1024 / putSeconds) * 10) / 10,
  endToEndMBps: Math.round((totalBytes / 1024 / 1024 / ((t2 - t0) / 1000)) * 10) / 10,
  rssBeforeMb: mb(before.peak!),
  peakRssMb: mb(rss.peak!),
  vmHwmMb: mb(vmHwmBytes),
};
log(`${uploads} concurrent uploads of ${sizeMb} MB through the local driver (${failed} failed)`);
log(`  upload URLs: ${result.uploadUrlMs} ms for ${uploads}`);
log(`  PUTs:        ${result.putMs} ms, ${result.putMBps} MB/s (end to end ${result.endToEndMBps} MB/s)`);
log(
  `  server RSS:  ${result.rssBeforeMb} MB before, peak ${result.peakRssMb} MB (VmHWM ${result.vmHwmMb} MB)`,
);
mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(path.join(benchDir, 'results', 'upload.json'), `${JSON.stringify(result, null, 2)}\n`);
if (failed > 0) process.exitCode = 1;
