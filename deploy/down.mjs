#!/usr/bin/env node
/**
 * Tears down the topology that deploy/up.mjs brought up (found through its pointer file in the
 * temporary directory), or the one whose directory is given: its processes, both PostgreSQL
 * servers, and the directory.
 *   node deploy/down.mjs [/tmp/cubes-deploy-XXXXXX]
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pointerFile, stopTopology } from './topology.mjs';

const dir = process.argv[2] ?? (existsSync(pointerFile) ? readFileSync(pointerFile, 'utf8').trim() : null);
const stateFile = dir ? path.join(dir, 'state.json') : null;
if (!stateFile || !existsSync(stateFile)) {
  console.log('[deploy] nothing to tear down');
  rmSync(pointerFile, { force: true });
  process.exit(0);
}
await stopTopology(JSON.parse(readFileSync(stateFile, 'utf8')));
rmSync(pointerFile, { force: true });
console.log(`[deploy] torn down: ${dir}`);
