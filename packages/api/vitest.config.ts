import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@cubes/db/vitest-global-setup'],
    pool: 'forks',
    // Files share a worker's modules (no fresh module graph per file): loading them was 150 s of
    // the suite's 290 s in CI. The suite passes with its files and tests in shuffled order.
    isolate: false,
    // A guard against hangs, not a timing: at a load average of 10 on two cores a test that takes
    // 3 s alone takes 30 (web's vite.config.ts says the same).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report feeds .ci/run's one-line total.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
