/** putStream on the local and memory drivers: stored only once the stream ends, nothing on failure. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalStorage, createMemoryStorage, type StorageDriver } from '../src/index.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** `parts` chunks of 64 KB, then an error instead of the end when `fail` is set. */
function body(parts: Buffer[], fail = false): Readable {
  return Readable.from(
    (async function* () {
      for (const part of parts) yield part;
      if (fail) throw new Error('the source broke');
    })(),
  );
}

async function drivers(): Promise<[string, StorageDriver, () => Promise<string[]>][]> {
  const root = await mkdtemp(path.join(tmpdir(), 'cubes-put-stream-'));
  dirs.push(root);
  const local = createLocalStorage({ root, secret: 's'.repeat(64) });
  await local.init();
  const memory = createMemoryStorage();
  return [
    ['local', local, () => readdir(path.join(root, '.tmp'))],
    ['memory', memory, async () => []],
  ];
}

describe('putStream', () => {
  it('stores what the stream yields, and nothing when it fails half-way', async () => {
    for (const [name, storage, leftovers] of await drivers()) {
      const parts = Array.from({ length: 20 }, () => randomBytes(64 * 1024));
      await storage.putStream('exports/a.zip', body(parts), 'application/zip');
      expect((await storage.read('exports/a.zip')).equals(Buffer.concat(parts)), name).toBe(true);
      expect(await storage.stat('exports/a.zip'), name).toMatchObject({ size: 20 * 64 * 1024 });

      await expect(
        storage.putStream('exports/b.zip', body(parts, true), 'application/zip'),
        name,
      ).rejects.toThrow('the source broke');
      expect(await storage.stat('exports/b.zip'), name).toBeNull();
      expect(await leftovers(), name).toEqual([]);
      if (name === 'local') {
        await expect(storage.putStream('../x', body(parts), 'application/zip')).rejects.toThrow(
          /Invalid object key/,
        );
      }
    }
  });
});
