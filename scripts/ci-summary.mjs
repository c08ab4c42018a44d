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
/** Each failed test by file and name: the summary is the part of a CI log that is always read. */
const failures = [];

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
    for (const file of r.testResults ?? []) {
      const where = path.relative(root, file.name);
      const failedHere = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedHere) failures.push(`${where} › ${t.fullName ?? t.title}`);
      if (file.status === 'failed' && failedHere.length === 0)
        failures.push(`${where}: ${(file.message ?? 'the file failed to run').split('\n')[0]}`);
    }
  }
}

const e2e = path.join(root, 'e2e', 'reports', 'playwright.json');
if (process.argv.includes('--with-e2e')) {
  if (existsSync(e2e)) {
    const report = JSON.parse(readFileSync(e2e, 'utf8'));
    const s = report.stats;
    passed += s.expected;
    failed += s.unexpected + s.flaky;
    skipped += s.skipped;
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? [])
          if (test.status === 'unexpected' || test.status === 'flaky')
            failures.push(`e2e/tests/${spec.file} › ${[...titles, spec.title].join(' › ')} (${test.status})`);
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const suite of report.suites ?? []) walk(suite, []);
  } else missing.push('e2e');
}

for (const f of failures) console.log(`failed: ${f}`);
for (const m of missing) console.error(`no test report from ${m}: it did not run`);
if (missing.length) failed += missing.length;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
