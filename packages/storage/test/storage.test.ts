import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createLocalStorage,
  createMemoryStorage,
  isImageType,
  isValidKey,
  loadOrCreateSecret,
  signUpload,
  sniffImageType,
  UploadTooLargeError,
  verifyUpload,
} from '../src/index.js';

const dirs: string[] = [];
async function tempDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'cubes-storage-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('upload signatures', () => {
  const secret = 'a'.repeat(64);
  it('verifies its own signature until expiry, for that key only', () => {
    const sig = signUpload(secret, 'uploads/a', 1000);
    expect(verifyUpload(secret, 'uploads/a', '1000', sig, 999)).toBe(true);
    expect(verifyUpload(secret, 'uploads/a', '1000', sig, 1000)).toBe(true);
    expect(verifyUpload(secret, 'uploads/a', '1000', sig, 1001)).toBe(false);
    expect(verifyUpload(secret, 'uploads/b', '1000', sig, 999)).toBe(false);
    expect(verifyUpload(secret, 'uploads/a', '2000', sig, 999)).toBe(false);
    expect(verifyUpload('b'.repeat(64), 'uploads/a', '1000', sig, 999)).toBe(false);
    expect(verifyUpload(secret, 'uploads/a', '1000', `${sig.slice(0, -1)}0`, 999)).toBe(sig.endsWith('0'));
    expect(verifyUpload(secret, 'uploads/a', '1000', 'zz', 999)).toBe(false);
    expect(verifyUpload(secret, 'uploads/a', undefined, sig, 999)).toBe(false);
  });

  it('generates a secret once, mode 600, and keeps it', async () => {
    const file = path.join(await tempDir(), 'upload-secret');
    const first = loadOrCreateSecret(file);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadOrCreateSecret(file)).toBe(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecret(file, 'configured')).toBe('configured');
  });
});

describe('keys and magic bytes', () => {
  it('refuses keys that could climb out', () => {
    expect(isValidKey('uploads/0b7c-1')).toBe(true);
    for (const bad of [
      '',
      '../x',
      'uploads/../x',
      'uploads/.hidden',
      '/abs',
      'a//b',
      'a/b/',
      'a b',
      'a%2e',
    ]) {
      expect(isValidKey(bad), bad).toBe(false);
    }
  });

  it('tells PNG, JPEG, GIF and WebP by their bytes', () => {
    expect(sniffImageType(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffImageType(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('local driver', () => {
  it('signs URLs that it verifies, and expires them', async () => {
    let now = 1_000_000;
    const storage = createLocalStorage({
      root: await tempDir(),
      secret: 's'.repeat(64),
      nowSeconds: () => now,
    });
    const url = new URL(await storage.createUploadUrl('uploads/x'), 'http://localhost');
    expect(url.pathname).toBe('/api/objects/put/uploads/x');
    expect(url.searchParams.get('expires')).toBe(String(now + 900));
    const args = [
      url.searchParams.get('expires') ?? undefined,
      url.searchParams.get('sig') ?? undefined,
    ] as const;
    expect(storage.verifyUploadUrl('uploads/x', ...args)).toBe(true);
    expect(storage.verifyUploadUrl('uploads/y', ...args)).toBe(false);
    now += 901;
    expect(storage.verifyUploadUrl('uploads/x', ...args)).toBe(false);
  });

  it('receives a stream, and leaves nothing behind past the limit', async () => {
    const root = await tempDir();
    const storage = createLocalStorage({ root, secret: 's'.repeat(64) });
    await storage.init();
    const size = await storage.receive('uploads/a', Readable.from([Buffer.alloc(10), Buffer.alloc(5)]), 20);
    expect(size).toBe(15);
    expect((await readFile(path.join(root, 'uploads/a'))).length).toBe(15);
    expect(await storage.stat('uploads/a')).toMatchObject({ size: 15 });

    const big = Readable.from([Buffer.alloc(15), Buffer.alloc(15)]);
    await expect(storage.receive('uploads/b', big, 20)).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(await storage.stat('uploads/b')).toBeNull();
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    // A body that fails before its first chunk, while the temp file may still be opening.
    async function* failing(): AsyncGenerator<Buffer> {
      yield* [];
      throw new Error('connection reset');
    }
    await expect(storage.receive('uploads/d', Readable.from(failing()), 20)).rejects.toThrow(/reset/);
    await expect(storage.putStream('uploads/d', Readable.from(failing()), 'application/zip')).rejects.toThrow(
      /reset/,
    );
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    expect(await storage.stat('uploads/d')).toBeNull();

    await storage.put('uploads/c', Buffer.from('hi'), 'text/plain');
    expect((await storage.read('uploads/c')).toString()).toBe('hi');
    await storage.remove('uploads/c');
    await storage.remove('uploads/c');
    expect(await storage.stat('uploads/c')).toBeNull();
    await expect(storage.read('../etc/passwd')).rejects.toThrow(/Invalid object key/);
  });

  it('lists the objects under a prefix, with when each was written', async () => {
    const root = await tempDir();
    const storage = createLocalStorage({ root, secret: 's'.repeat(64) });
    await storage.init();
    expect(await storage.list('incoming/')).toEqual([]); // no directory yet
    const before = Date.now() - 1000;
    await storage.put('incoming/a', Buffer.from('a'), 'image/png');
    await storage.receive('incoming/b', Readable.from([Buffer.from('b')]), 10);
    await storage.put('uploads/c', Buffer.from('c'), 'image/png');
    const listed = await storage.list('incoming/');
    expect(listed.map((o) => o.key).sort()).toEqual(['incoming/a', 'incoming/b']);
    for (const o of listed) expect(o.lastModified.getTime()).toBeGreaterThan(before);
    const memory = createMemoryStorage();
    await memory.put('incoming/x', Buffer.from('x'), 'text/html');
    await memory.put('uploads/x', Buffer.from('x'), 'image/png');
    expect((await memory.list('incoming/')).map((o) => o.key)).toEqual(['incoming/x']);
  });
});

describe('served types', () => {
  it('allows the four image types set-acl writes, and nothing else', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
      expect(isImageType(type)).toBe(true);
    for (const type of [
      'image/svg+xml',
      'text/html',
      'text/javascript',
      'image/png; x=1',
      '',
      null,
      undefined,
    ]) {
      expect(isImageType(type), String(type)).toBe(false);
    }
  });
});
