#!/usr/bin/env node
/**
 * Adds up the JSON reports of every vitest suite and the Playwright suite and prints the one
 * line CI reads: "N passed, M failed" (", K skipped" when any). Exits 1 when a report that
 * should exist is missing, so a suite that never ran cannot pass silently.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];

for (const group of ['apps', 'packages']) {
  for (const name of readdirSync(path.join(root, group))) {
    const dir = path.join(root, group, name);
    const pkg = path.join(dir, 'package.json');
    if (!existsSync(pkg) || !JSON.parse(readFileSync(pkg, 'utf8')).scripts?.test?.includes('vitest'))
      continue;
    const report = path.join(dir, 'test-results', 'vitest.json');
    if (!existsSync(report)) {
      missing.push(`${group}/${name}`);
      continue;
    }
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed +=
      r.numFailedTests + (r.success ? 0 : r.numFailedTestSuites > 0 && r.numFailedTests === 0 ? 1 : 0);
    skipped += r.numPendingTests + r.numTodoTests;
  }
}

const e2e = path.join(root, 'e2e', 'reports', 'playwright.json');
if (process.argv.includes('--with-e2e')) {
  if (existsSync(e2e)) {
    const s = JSON.parse(readFileSync(e2e, 'utf8')).stats;
    passed += s.expected;
    failed += s.unexpected + s.flaky;
    skipped += s.skipped;
  } else missing.push('e2e');
}

for (const m of missing) console.error(`no test report from ${m}: it did not run`);
if (missing.length) failed += missing.length;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
