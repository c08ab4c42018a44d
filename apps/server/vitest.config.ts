import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@cubes/db/vitest-global-setup'],
    pool: 'forks',
    // Files share a worker's modules, as @cubes/api's do: with a fresh module graph per file,
    // loading the app was 320 s of the suite's 566 s in a CI run (18 s now; the suite alone: 269 s).
    // Each file's apps still have databases and storage of their own (harness.ts); a file whose
    // app is built otherwise takes an `it` of its own (fixtures.ts, itWith).
    isolate: false,
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
