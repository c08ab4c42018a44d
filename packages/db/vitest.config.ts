import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A migrated template database per run; schema.test.ts clones it (testing.ts).
    globalSetup: ['./src/vitest-global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report feeds .ci/run's one-line total.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
