/**
 * A small ZIP writer (PKWARE APPNOTE 6.3, no ZIP64): files are added whole and the archive comes
 * out as one Buffer. Names are UTF-8 (flag bit 11). JSON and text are deflated; data that deflate
 * does not shrink (JPEG, PNG, WebP) is stored as it is. Without ZIP64 an archive holds at most
 * 65,535 files and 4 GiB; past that `add` throws rather than write a broken archive.
 */
import { crc32, deflateRawSync } from 'node:zlib';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const VERSION = 20; // 2.0: deflate
const UTF8_NAMES = 0x0800;
const STORED = 0;
const DEFLATED = 8;
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;

interface Entry {
  name: Buffer;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** MS-DOS date and time (local time, 2-second steps, years 1980–2107), as ZIP stores them. */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

export class ZipTooLargeError extends Error {
  constructor() {
    super('The archive would exceed 65,535 files or 4 GiB');
  }
}

export class ZipWriter {
  private readonly parts: Buffer[] = [];
  private readonly entries: Entry[] = [];
  private readonly names = new Set<string>();
  private offset = 0;
  private readonly stamp: { time: number; date: number };

  constructor(modified: Date = new Date()) {
    this.stamp = dosDateTime(modified);
  }

  /** Adds a file; `name` uses `/` between folders. A name given twice is refused. */
  add(name: string, data: Buffer | string): void {
    if (!name || name.startsWith('/') || name.split('/').includes('..')) {
      throw new Error(`Invalid file name in archive: ${name}`);
    }
    if (this.names.has(name)) throw new Error(`Duplicate file name in archive: ${name}`);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const deflated = deflateRawSync(bytes);
    const method = deflated.length < bytes.length ? DEFLATED : STORED;
    const body = method === DEFLATED ? deflated : bytes;
    const nameBytes = Buffer.from(name, 'utf8');
    const headerSize = 30 + nameBytes.length;
    if (
      this.entries.length + 1 > MAX_ENTRIES ||
      this.offset + headerSize + body.length > MAX_OFFSET ||
      bytes.length > MAX_OFFSET
    ) {
      throw new ZipTooLargeError();
    }
    const entry: Entry = {
      name: nameBytes,
      method,
      crc: crc32(bytes),
      compressedSize: body.length,
      size: bytes.length,
      offset: this.offset,
    };
    const header = Buffer.alloc(headerSize);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(UTF8_NAMES, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    header.writeUInt16LE(0, 28); // no extra field
    nameBytes.copy(header, 30);
    this.parts.push(header, body);
    this.offset += header.length + body.length;
    this.entries.push(entry);
    this.names.add(name);
  }

  /** The archive: the files, the central directory and its end record. */
  finish(): Buffer {
    const directory: Buffer[] = [];
    for (const entry of this.entries) {
      const record = Buffer.alloc(46 + entry.name.length);
      record.writeUInt32LE(CENTRAL_HEADER, 0);
      record.writeUInt16LE(VERSION, 4); // made by
      record.writeUInt16LE(VERSION, 6); // needed to extract
      record.writeUInt16LE(UTF8_NAMES, 8);
      record.writeUInt16LE(entry.method, 10);
      record.writeUInt16LE(this.stamp.time, 12);
      record.writeUInt16LE(this.stamp.date, 14);
      record.writeUInt32LE(entry.crc, 16);
      record.writeUInt32LE(entry.compressedSize, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      // extra field, comment, disk number, internal and external attributes: all zero
      record.writeUInt32LE(entry.offset, 42);
      entry.name.copy(record, 46);
      directory.push(record);
    }
    const directorySize = directory.reduce((sum, b) => sum + b.length, 0);
    if (this.offset + directorySize > MAX_OFFSET) throw new ZipTooLargeError();
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directorySize, 12);
    end.writeUInt32LE(this.offset, 16);
    return Buffer.concat([...this.parts, ...directory, end]);
  }
}
