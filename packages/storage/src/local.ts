/**
 * The local driver (the default): objects are files under `root`, uploads come to our own server
 * through HMAC-signed PUT URLs (`/api/objects/put/<key>?expires=<unix>&sig=<hex>`).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ListedObject, ObjectStat, StorageDriver } from './driver.js';
import { isValidKey, UPLOAD_URL_TTL_SECONDS } from './keys.js';
import { signUpload, verifyUpload } from './signing.js';

/** The path our server receives uploads on; the key follows it. */
export const LOCAL_UPLOAD_PATH = '/api/objects/put/';

export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Upload is larger than ${limit} bytes`);
  }
}

export interface LocalStorageOptions {
  root: string;
  secret: string;
  /** Prefix of upload URLs, e.g. 'https://cubes.example' (default: none, a same-origin path). */
  baseUrl?: string;
  /** Unix seconds; tests move it. */
  nowSeconds?: () => number;
}

export interface LocalStorage extends StorageDriver {
  readonly kind: 'local';
  readonly root: string;
  /** True when (expires, sig) is a valid, unexpired signature for this key. */
  verifyUploadUrl(key: string, expires: string | undefined, sig: string | undefined): boolean;
  /**
   * Streams `body` into the object `key` (through a temp file, renamed into place at the end).
   * Throws UploadTooLargeError past `maxBytes`, leaving nothing behind. Returns the size.
   */
  receive(key: string, body: Readable, maxBytes: number): Promise<number>;
}

export function createLocalStorage(options: LocalStorageOptions): LocalStorage {
  const root = path.resolve(options.root);
  const tmpDir = path.join(root, '.tmp');
  const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));

  function fileOf(key: string): string {
    if (!isValidKey(key)) throw new Error(`Invalid object key: ${key}`);
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep)) throw new Error(`Invalid object key: ${key}`);
    return file;
  }

  /**
   * Streams `source` into a temp file, then renames it into place; on failure nothing is left.
   * The temp file is created before the stream starts: pipeline() rejects as soon as the source
   * throws, before a lazily opened write stream has even created its file, and an rm at that
   * moment would run before the file appeared (it did once in CI, leaving a stray in .tmp).
   */
  async function writeThroughTemp(
    key: string,
    source: Readable | (() => AsyncGenerator<Buffer>),
  ): Promise<void> {
    const file = fileOf(key);
    await mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    const handle = await open(tmp, 'wx', 0o644);
    try {
      await pipeline(source, handle.createWriteStream());
      await mkdir(path.dirname(file), { recursive: true });
      await rename(tmp, file);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  return {
    kind: 'local',
    uploadOrigin: null,
    root,
    async init() {
      await mkdir(tmpDir, { recursive: true });
    },
    async createUploadUrl(key, ttlSeconds = UPLOAD_URL_TTL_SECONDS) {
      fileOf(key);
      const expires = nowSeconds() + ttlSeconds;
      const sig = signUpload(options.secret, key, expires);
      return `${options.baseUrl ?? ''}${LOCAL_UPLOAD_PATH}${key}?expires=${expires}&sig=${sig}`;
    },
    verifyUploadUrl(key, expires, sig) {
      return isValidKey(key) && verifyUpload(options.secret, key, expires, sig, nowSeconds());
    },
    async receive(key, body, maxBytes) {
      let size = 0;
      // The request is read, not destroyed, when the limit is passed, so the server can still
      // answer 413 instead of resetting the connection.
      async function* limited() {
        for await (const chunk of body.iterator({ destroyOnReturn: false })) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) throw new UploadTooLargeError(maxBytes);
          yield chunk as Buffer;
        }
      }
      await writeThroughTemp(key, limited);
      return size;
    },
    async stat(key): Promise<ObjectStat | null> {
      try {
        const s = await stat(fileOf(key));
        if (!s.isFile()) return null;
        return { size: s.size, etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"` };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    read: async (key) => readFile(fileOf(key)),
    async createReadStream(key) {
      const file = fileOf(key);
      await stat(file); // ENOENT here rather than as a stream error after headers went out
      return createReadStream(file);
    },
    async put(key, data) {
      await writeThroughTemp(key, Readable.from([data]));
    },
    async remove(key) {
      try {
        await unlink(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    async list(prefix) {
      const dir = path.join(root, ...prefix.split('/').filter(Boolean));
      let entries: string[];
      try {
        entries = await readdir(dir, { recursive: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const listed: ListedObject[] = [];
      for (const entry of entries) {
        const key = `${prefix}${entry.split(path.sep).join('/')}`;
        if (!isValidKey(key)) continue;
        try {
          const s = await stat(path.join(dir, entry));
          if (s.isFile()) listed.push({ key, lastModified: s.mtime });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // gone meanwhile
        }
      }
      return listed;
    },
    async putStream(key, body) {
      await writeThroughTemp(key, body);
    },
  };
}

export function isLocalStorage(driver: StorageDriver): driver is LocalStorage {
  return driver.kind === 'local' && typeof (driver as Partial<LocalStorage>).receive === 'function';
}
