/**
 * putStream on the S3 driver against a real S3-protocol server (s3rver on 127.0.0.1): a stream of
 * unknown length longer than one part goes up as a multipart upload and reads back whole; a stream
 * that fails half-way rejects (rather than leaving the upload waiting) and leaves no object. And
 * a member's data export over HTTP with S3 storage: uploads streamed in, the zip streamed out.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { readZip } from '@cubes/api/testing/zip';
import { STREAM_PART_BYTES } from '@cubes/storage';
import { describe, expect, vi } from 'vitest';
import { withS3 } from './fixtures.js';
import { registerUser } from './harness.js';

const it = withS3('cubes-export-test');

/** `total` bytes of noise in 1 MB chunks, made as they are read; fails at `failAt` if given. */
function noise(total: number, failAt?: number): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (failAt !== undefined && sent >= failAt) {
        this.destroy(new Error('the archive broke'));
        return;
      }
      if (sent >= total) {
        this.push(null);
        return;
      }
      const chunk = randomBytes(Math.min(1024 * 1024, total - sent));
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

describe('S3 putStream', () => {
  it('uploads a stream longer than one part, in parts, and it reads back whole', async ({ t }) => {
    const total = STREAM_PART_BYTES + 3 * 1024 * 1024;
    const { stream, digest } = noise(total);
    await t.storage.putStream('exports/big.zip', stream, 'application/zip');
    expect(await t.storage.stat('exports/big.zip')).toMatchObject({ size: total });
    const back = createHash('sha256');
    for await (const chunk of await t.storage.createReadStream('exports/big.zip'))
      back.update(chunk as Buffer);
    expect(back.digest('hex')).toBe(digest());
  }, 60_000);

  it('rejects when the stream fails, and leaves no object behind', async ({ t }) => {
    const { stream } = noise(STREAM_PART_BYTES * 2, STREAM_PART_BYTES + 1024 * 1024);
    await expect(t.storage.putStream('exports/broken.zip', stream, 'application/zip')).rejects.toThrow(
      'the archive broke',
    );
    expect(await t.storage.stat('exports/broken.zip')).toBeNull();

    const early = noise(1024 * 1024, 0).stream;
    await expect(t.storage.putStream('exports/early.zip', early, 'application/zip')).rejects.toThrow(
      'the archive broke',
    );
    expect(await t.storage.stat('exports/early.zip')).toBeNull();
  }, 60_000);
});

describe('data export on S3', () => {
  it('streams the uploads into a zip on S3 that its owner downloads whole', async ({ t }) => {
    const { user, cookie } = await registerUser(t.app);
    const uploads = new Map<string, Buffer>();
    // Four files of 5 MB: the archive is longer than one 16 MiB part.
    for (let i = 0; i < 4; i += 1) {
      const key = `uploads/${randomUUID()}`;
      const bytes = randomBytes(5 * 1024 * 1024);
      await t.storage.put(key, bytes, 'image/png');
      await t.orm.em.fork().execute(
        `insert into uploaded_objects (key, owner_id, content_type, size, visibility, width, height, created_at)
           values (?, ?, 'image/png', ?, 'public', 1, 1, ?)`,
        [key, user.id, bytes.length, new Date(Date.now() + i)],
      );
      uploads.set(key, bytes);
    }
    const started = await t.app.inject({ method: 'POST', url: '/api/account/export', headers: { cookie } });
    expect(started.statusCode).toBe(202);
    const done = await vi.waitFor(
      async () => {
        const res = await t.app.inject({ method: 'GET', url: '/api/account/export', headers: { cookie } });
        expect(res.json()).toMatchObject({ status: 'done' });
        return res.json() as { downloadUrl: string; size: number };
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(done.size).toBeGreaterThan(STREAM_PART_BYTES);
    const file = await t.app.inject({ method: 'GET', url: done.downloadUrl, headers: { cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBe(done.size);
    const files = readZip(file.rawPayload);
    for (const [key, bytes] of uploads) {
      expect(files.get(`uploads/${key.slice('uploads/'.length)}.png`)?.equals(bytes), key).toBe(true);
    }
  }, 60_000);
});
