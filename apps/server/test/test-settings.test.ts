/**
 * Test-only settings (env.ts's test section): a production start with one set logs a warning that
 * names it; a test or development start, or a production one without them, says nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@cubes/db/testing';
import { describe, expect, it, vi } from 'vitest';
import { readEnv, TEST_ONLY_SETTINGS, testSettingsWarning } from '../src/env.js';
import { freePorts, startServer, stopServer } from './ops-instances.js';

describe('test-only settings', () => {
  it('are the five the tests use, read as before', () => {
    expect([...TEST_ONLY_SETTINGS].sort()).toEqual([
      'CUBEY_OFFLINE_DELAY_MS',
      'CUBEY_OFFLINE_THINK_MS',
      'EXPORT_STEP_DELAY_MS',
      'LINK_PREVIEW_ALLOW_PRIVATE',
      'PUSH_ALLOW_PRIVATE_ENDPOINTS',
    ]);
    const env = readEnv({ CUBEY_OFFLINE_DELAY_MS: '0', PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' });
    expect(env).toMatchObject({
      CUBEY_OFFLINE_DELAY_MS: 0,
      CUBEY_OFFLINE_THINK_MS: 0,
      EXPORT_STEP_DELAY_MS: 0,
      PUSH_ALLOW_PRIVATE_ENDPOINTS: true,
      LINK_PREVIEW_ALLOW_PRIVATE: false,
    });
    expect(readEnv({ LINK_PREVIEW_ALLOW_PRIVATE: '1' }).LINK_PREVIEW_ALLOW_PRIVATE).toBe(true);
    expect(readEnv({}).CUBEY_OFFLINE_DELAY_MS).toBe(12);
  });

  it('are named in a warning in production only, when set', () => {
    expect(testSettingsWarning('production', {})).toBeNull();
    expect(
      testSettingsWarning('production', {
        PUSH_ALLOW_PRIVATE_ENDPOINTS: '0',
        LINK_PREVIEW_ALLOW_PRIVATE: 'false',
        EXPORT_STEP_DELAY_MS: '',
      }),
    ).toBeNull();
    expect(testSettingsWarning('test', { EXPORT_STEP_DELAY_MS: '500' })).toBeNull();
    expect(testSettingsWarning('development', { PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' })).toBeNull();
    const warning = testSettingsWarning('production', {
      EXPORT_STEP_DELAY_MS: '500',
      CUBEY_OFFLINE_DELAY_MS: '0',
    });
    expect(warning).toContain('CUBEY_OFFLINE_DELAY_MS, EXPORT_STEP_DELAY_MS');
    expect(warning).not.toContain('PUSH_ALLOW_PRIVATE_ENDPOINTS');
  });

  it('a production start with one set logs the warning, naming it', async () => {
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-test-settings-'));
    const server = startServer({
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: String(await freePorts(1)),
      METRICS_PORT: '0',
      PUSH_ALLOW_PRIVATE_ENDPOINTS: '1',
    });
    try {
      const line = await vi.waitFor(
        () => {
          const found = server.output
            .join('')
            .split('\n')
            .find((l) => l.includes('test-only settings'));
          if (!found) throw new Error(`no warning yet:\n${server.output.join('')}`);
          return found;
        },
        { timeout: 120_000, interval: 100 },
      );
      expect(JSON.parse(line)).toMatchObject({ level: 40 });
      expect(line).toContain('PUSH_ALLOW_PRIVATE_ENDPOINTS');
      expect(line).not.toContain('EXPORT_STEP_DELAY_MS');
    } finally {
      await stopServer(server);
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
