import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@cubes/db/vitest-global-setup'],
    pool: 'forks',
    // Two files at a time. Vitest's default is one fewer than the cores (1 on CI's two), which left
    // a core idle once the other packages' suites had finished: this suite ran 11 minutes alone.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // The JSON report feeds .ci/run's one-line total.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
