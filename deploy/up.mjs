#!/usr/bin/env node
/**
 * Brings the reference topology up and keeps it running in the foreground: nginx in front of 3
 * app instances, a PostgreSQL 15 primary with a streaming standby, S3 on s3rver, all on
 * 127.0.0.1 in one temporary directory. Ctrl+C (or `node deploy/down.mjs` from another shell)
 * tears it all down.
 *   node deploy/up.mjs [--no-build] [--instances=N]
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pointerFile, startTopology, stopTopology } from './topology.mjs';

const instances = Number(process.argv.find((a) => a.startsWith('--instances='))?.split('=')[1] ?? 3);
const log = (line) => console.log(`[deploy] ${line}`);
const state = await startTopology({ instances, build: !process.argv.includes('--no-build'), log }).catch(
  (error) => {
    console.error(`[deploy] could not bring the topology up: ${error.message}`);
    process.exit(1);
  },
);

let stopping = false;
async function down(reason) {
  if (stopping) return;
  stopping = true;
  log(`${reason}: tearing down`);
  await stopTopology(state);
  rmSync(pointerFile, { force: true });
  process.exit(0);
}
process.on('SIGINT', () => void down('SIGINT'));
process.on('SIGTERM', () => void down('SIGTERM'));

log(`open ${state.proxy} (nginx)`);
for (const i of state.instances)
  log(`  ${i.name}: ${i.base} (process group ${i.pid}, log ${path.join(state.dir, `${i.name}.log`)})`);
log(`  S3 (s3rver): ${state.s3}`);
log(`  URLs and passwords of this run: ${path.join(state.dir, 'state.json')}`);
log('Ctrl+C, or node deploy/down.mjs, tears it down');
// down.mjs removes the directory: then there is nothing left to keep running.
const watch = setInterval(() => {
  if (!existsSync(state.dir)) {
    clearInterval(watch);
    rmSync(pointerFile, { force: true });
    log('torn down by down.mjs');
    process.exit(0);
  }
}, 500);
