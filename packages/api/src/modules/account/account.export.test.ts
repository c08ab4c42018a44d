/**
 * The export is streamed: uploads are read from storage as streams one at a time, and the zip
 * reaches storage (putStream) while it is written, so what is held in memory does not grow with
 * the number or size of a member's files. Checked on the storage calls the build makes, through
 * a recording wrapper around the real memory driver; and a failure half-way leaves no archive.
 * As a job with retries, a failed attempt goes back to queued and a dead build is taken over.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PassThrough, Transform } from 'node:stream';
import { createMemoryStorage, type MemoryStorage, type StorageDriver } from '@cubes/storage';
import { describe, expect, it, vi } from 'vitest';
import { createMember, useDatabase } from '../../../test/harness.js';
import { readZip } from '../../../test/zip-reader.js';
import { buildExport, EXPORT_FAILED, exportObjectKey } from './account.export.js';
import { findExportDownload } from './account.service.js';
import { replaceExports } from './export.repository.js';

const db = useDatabase();

const FILE_BYTES = 512 * 1024;
const FILES = 12;

/** The calls the build makes on storage, and how far reading ran ahead of storing. */
function recording(inner: MemoryStorage, options: { failAfterBytes?: { key: string; bytes: number } } = {}) {
  const calls: string[] = [];
  const state = { open: 0, maxOpen: 0, readBytes: 0, storedBytes: 0, maxAhead: 0, storedBeforeLastOpen: 0 };
  const driver: StorageDriver = {
    ...inner,
    read: async (key) => {
      calls.push(`read ${key}`);
      return inner.read(key);
    },
    put: async (key, data, contentType) => {
      calls.push(`put ${key}`);
      return inner.put(key, data, contentType);
    },
    createReadStream: async (key) => {
      calls.push(`stream ${key}`);
      state.maxAhead = Math.max(state.maxAhead, state.readBytes - state.storedBytes);
      state.storedBeforeLastOpen = state.storedBytes;
      const source = await inner.createReadStream(key);
      const fail = options.failAfterBytes?.key === key ? options.failAfterBytes.bytes : null;
      let passed = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          if (fail !== null && passed + chunk.length > fail) {
            callback(new Error('the disk went away'));
            return;
          }
          passed += chunk.length;
          state.readBytes += chunk.length;
          callback(null, chunk);
        },
      });
      state.open += 1;
      state.maxOpen = Math.max(state.maxOpen, state.open);
      counted.once('close', () => {
        state.open -= 1;
      });
      source.on('error', (error) => counted.destroy(error));
      return source.pipe(counted);
    },
    putStream: async (key, body, contentType) => {
      calls.push(`putStream ${key}`);
      const counter = new PassThrough();
      body.on('data', (chunk: Buffer) => {
        state.storedBytes += chunk.length;
      });
      body.on('error', (error) => counter.destroy(error));
      body.pipe(counter);
      return inner.putStream(key, counter, contentType);
    },
  };
  return { driver, calls, state };
}

async function withUploads(
  storage: MemoryStorage,
  ownerId: string,
  count: number,
): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const em = db.orm.em.fork();
  for (let i = 0; i < count; i += 1) {
    const key = `uploads/${randomUUID()}`;
    const bytes = randomBytes(FILE_BYTES); // incompressible, like a real image
    await em.execute(
      `insert into uploaded_objects (key, owner_id, content_type, size, visibility, width, height, created_at)
         values (?, ?, 'image/jpeg', ?, 'public', 1, 1, ?)`,
      [key, ownerId, bytes.length, new Date(Date.now() + i)],
    );
    await storage.put(key, bytes, 'image/jpeg');
    files.set(key, bytes);
  }
  return files;
}

async function settled(caller: Awaited<ReturnType<typeof createMember>>['caller']) {
  return vi.waitFor(
    async () => {
      const state = await caller.account.export();
      expect(['done', 'failed']).toContain(state?.status);
      return state!;
    },
    { timeout: 15_000, interval: 25 },
  );
}

describe('data export streaming', () => {
  it('streams uploads in one at a time and the zip out to storage as it is written', async () => {
    const inner = createMemoryStorage();
    const { driver, calls, state } = recording(inner);
    const member = await createMember(db.orm, {}, { storage: driver });
    const uploads = await withUploads(inner, member.user.id, FILES);
    calls.length = 0;

    await member.caller.account.requestExport();
    const done = await settled(member.caller);
    expect(done.status).toBe('done');

    const zipKey = exportObjectKey(done.id);
    // No whole-object reads of the uploads, no whole-buffer put of the archive.
    expect(calls.filter((c) => c.startsWith('read ') || c.startsWith('put '))).toEqual([]);
    expect(calls[0]).toBe(`putStream ${zipKey}`);
    expect(calls.filter((c) => c.startsWith('stream '))).toEqual(
      [...uploads.keys()].map((k) => `stream ${k}`),
    );
    // One upload open at a time, and each opened only once the ones before reached storage
    // (less than one file's worth still in the pipes), not after all were read.
    expect(state.maxOpen).toBe(1);
    expect(state.maxAhead).toBeLessThan(FILE_BYTES);
    expect(state.storedBeforeLastOpen).toBeGreaterThan((FILES - 2) * FILE_BYTES);

    const download = await findExportDownload(db.orm.em.fork(), member.user.id, done.id);
    const archive = inner.objects.get(zipKey)!.data;
    expect(archive.length).toBe(download!.size);
    expect(archive.length).toBe(state.storedBytes);
    const files = readZip(archive);
    for (const [key, bytes] of uploads) {
      expect(files.get(`uploads/${key.slice('uploads/'.length)}.jpg`)?.equals(bytes)).toBe(true);
    }
    const listed = JSON.parse(files.get('uploads.json')!.toString('utf8')) as { file: string | null }[];
    expect(listed).toHaveLength(FILES);
    expect(listed.every((f) => f.file !== null)).toBe(true);
  });

  it('fails cleanly when an upload cannot be read to its end: no archive is left behind', async () => {
    const inner = createMemoryStorage();
    const failing = { key: '', bytes: FILE_BYTES / 2 };
    const { driver } = recording(inner, { failAfterBytes: failing });
    const errors: unknown[] = [];
    const member = await createMember(
      db.orm,
      {},
      { storage: driver, logError: (_message, error) => errors.push(error) },
    );
    const uploads = await withUploads(inner, member.user.id, 3);
    failing.key = [...uploads.keys()][1]!;

    await member.caller.account.requestExport();
    const state = await settled(member.caller);
    expect(state.status).toBe('failed');
    expect(state.downloadUrl).toBeNull();
    expect(String(errors[0])).toMatch(/the disk went away/);
    expect([...inner.objects.keys()].filter((k) => k.startsWith('exports/'))).toEqual([]);
    const [row] = await db.orm.em
      .fork()
      .execute<{ error: string }[]>('select error from account_exports where id = ?', [state.id]);
    expect(row?.error).toBe(EXPORT_FAILED);
  });

  it('leaves a missing upload out (file: null) and still finishes', async () => {
    const inner = createMemoryStorage();
    const { driver } = recording(inner);
    const member = await createMember(db.orm, {}, { storage: driver });
    const uploads = await withUploads(inner, member.user.id, 2);
    const gone = [...uploads.keys()][0]!;
    await inner.remove(gone);

    await member.caller.account.requestExport();
    const done = await settled(member.caller);
    expect(done.status).toBe('done');
    const files = readZip(inner.objects.get(exportObjectKey(done.id))!.data);
    const listed = JSON.parse(files.get('uploads.json')!.toString('utf8')) as {
      file: string | null;
      objectPath: string;
    }[];
    expect(listed.map((f) => [f.objectPath, f.file === null])).toEqual([
      [`/objects/${gone}`, true],
      [`/objects/${[...uploads.keys()][1]}`, false],
    ]);
    expect([...files.keys()].filter((n) => n.startsWith('uploads/'))).toHaveLength(1);
  });
});

describe('export builds as jobs with retries', () => {
  it('puts a failed attempt back to queued, leaves a live build alone and takes over a silent one', async () => {
    const inner = createMemoryStorage();
    const failing = { key: '', bytes: FILE_BYTES / 2 };
    const { driver } = recording(inner, { failAfterBytes: failing });
    const member = await createMember(db.orm, {}, { storage: driver });
    const uploads = await withUploads(inner, member.user.id, 2);
    failing.key = [...uploads.keys()][1]!;
    const { row } = await replaceExports(db.orm.em.fork(), member.user.id, new Date());
    const deps = () => ({ em: db.orm.em.fork(), storage: driver, now: () => new Date() });
    const status = async () =>
      (
        await db.orm.em
          .fork()
          .execute<{ status: string }[]>('select status from account_exports where id = ?', [row.id])
      )[0]?.status;

    // Not the last attempt: the export waits for its retry, and the job fails with the cause.
    await expect(buildExport(deps(), row.id, { lastAttempt: false })).rejects.toThrow(/the disk went away/);
    expect(await status()).toBe('queued');
    failing.key = '';

    // Another build holds it and its row moved just now: left alone.
    await db.orm.em
      .fork()
      .execute(`update account_exports set status = 'running', updated_at = now() where id = ?`, [row.id]);
    expect(await buildExport(deps(), row.id, { takeOverAfterMs: 60_000 })).toBe('busy');
    expect(await status()).toBe('running');

    // Silent for longer than the limit: its build died, this one takes over and ends it.
    await db.orm.em
      .fork()
      .execute(`update account_exports set updated_at = now() - interval '2 minutes' where id = ?`, [row.id]);
    expect(await buildExport(deps(), row.id, { takeOverAfterMs: 60_000 })).toBe('done');
    expect(await status()).toBe('done');
    expect(inner.objects.has(exportObjectKey(row.id))).toBe(true);
    expect(await buildExport(deps(), row.id, { takeOverAfterMs: 60_000 })).toBe('skipped');
  });
});
