import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@cubes/db/vitest-global-setup'],
    pool: 'forks',
    // Two files at a time. Vitest's default is one fewer than the cores (1 on CI's two), which left
    // a core idle once the other packages' suites had finished: this suite ran 11 minutes alone.
    maxWorkers: 2,
    // A guard against hangs, not a timing: at a load average of 10 on two cores a test that takes
    // 3 s alone takes 30 (web's vite.config.ts says the same).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report feeds .ci/run's one-line total.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
