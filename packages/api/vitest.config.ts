import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@cubes/db/vitest-global-setup'],
    pool: 'forks',
    // Files share a worker's modules (no fresh module graph per file): loading them was 150 s of
    // the suite's 290 s in CI. The suite passes with its files and tests in shuffled order.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // The JSON report feeds .ci/run's one-line total.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
