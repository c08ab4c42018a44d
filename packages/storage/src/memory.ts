/** An in-memory driver for procedure tests: no disk, no network. */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStat, StorageDriver } from './driver.js';

export interface MemoryStorage extends StorageDriver {
  readonly objects: Map<string, { data: Buffer; contentType: string; lastModified: Date }>;
}

export function createMemoryStorage(): MemoryStorage {
  const objects = new Map<string, { data: Buffer; contentType: string; lastModified: Date }>();
  const get = (key: string) => {
    const o = objects.get(key);
    if (!o) throw Object.assign(new Error(`no object ${key}`), { code: 'ENOENT' });
    return o;
  };
  return {
    kind: 'memory',
    uploadOrigin: null,
    objects,
    init: async () => {},
    createUploadUrl: async (key) => `memory://upload/${key}`,
    stat: async (key): Promise<ObjectStat | null> => {
      const o = objects.get(key);
      if (!o) return null;
      return { size: o.data.length, etag: `"${createHash('sha1').update(o.data).digest('hex')}"` };
    },
    read: async (key) => get(key).data,
    createReadStream: async (key) => Readable.from([get(key).data]),
    put: async (key, data, contentType) => {
      objects.set(key, { data, contentType, lastModified: new Date() });
    },
    remove: async (key) => {
      objects.delete(key);
    },
    list: async (prefix) =>
      [...objects]
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, o]) => ({ key, lastModified: o.lastModified })),
    putStream: async (key, body, contentType) => {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
      objects.set(key, { data: Buffer.concat(chunks), contentType, lastModified: new Date() });
    },
  };
}
