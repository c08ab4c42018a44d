import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@cubes/db/vitest-global-setup'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
