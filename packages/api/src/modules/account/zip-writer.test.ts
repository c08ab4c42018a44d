import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../../test/zip-reader.js';
import { ZipWriter } from './zip-writer.js';

function sample(): { archive: Buffer; files: Map<string, Buffer> } {
  const files = new Map<string, Buffer>([
    ['profile.json', Buffer.from(JSON.stringify({ name: 'Zoë 🧊', bio: 'x'.repeat(10_000) }))],
    ['empty.txt', Buffer.alloc(0)],
    ['uploads/noise.bin', randomBytes(200_000)], // does not deflate: stored
    ['dossier/ünïcödé 名前.txt', Buffer.from('utf-8 names')],
  ]);
  const zip = new ZipWriter(new Date(2026, 10, 23, 12, 34, 56));
  for (const [name, data] of files) zip.add(name, data);
  return { archive: zip.finish(), files };
}

describe('ZipWriter', () => {
  it('writes an archive a reader gets every file back from, byte for byte', () => {
    const { archive, files } = sample();
    expect(readZip(archive)).toEqual(files);
    // JSON is deflated, random bytes are stored: the archive is smaller than the JSON alone.
    expect(archive.length).toBeLessThan(200_000 + 10_000);
  });

  it('refuses duplicate and escaping names', () => {
    const zip = new ZipWriter();
    zip.add('a.json', '{}');
    expect(() => zip.add('a.json', '{}')).toThrow(/Duplicate/);
    expect(() => zip.add('../evil', 'x')).toThrow(/Invalid/);
    expect(() => zip.add('/abs', 'x')).toThrow(/Invalid/);
  });

  it.skipIf(!existsSync('/usr/bin/unzip'))('passes Info-ZIP’s own test (unzip -t)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-'));
    try {
      const file = join(dir, 'export.zip');
      writeFileSync(file, sample().archive);
      const out = execFileSync('/usr/bin/unzip', ['-t', file], { encoding: 'utf8' });
      expect(out).toMatch(/No errors detected/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
