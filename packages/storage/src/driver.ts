import type { Readable } from 'node:stream';

export interface ObjectStat {
  size: number;
  /** Quoted, ready for an ETag header. */
  etag: string;
}

/** Where uploaded objects live: the local disk or an S3 bucket. Keys are checked with isValidKey. */
export interface StorageDriver {
  readonly kind: 'local' | 's3' | 'memory';
  /** The origin browsers send uploads to when it is not the app's own (S3), for the CSP. */
  readonly uploadOrigin: string | null;
  /** Creates what the driver needs (directories, the bucket). */
  init(): Promise<void>;
  /** A URL the browser PUTs the file's bytes to; valid for `ttlSeconds`, for this one key only. */
  createUploadUrl(key: string, ttlSeconds?: number): Promise<string>;
  /** null when the object does not exist. */
  stat(key: string): Promise<ObjectStat | null>;
  /** The whole object (callers check its size with stat first). */
  read(key: string): Promise<Buffer>;
  createReadStream(key: string): Promise<Readable>;
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Removing a missing object is not an error. */
  remove(key: string): Promise<void>;
  /**
   * Stores what `body` yields as the object `key`, without holding it whole in memory (the data
   * export's zip). The object appears only once `body` has ended; when `body` fails, the promise
   * rejects with its error and no object is left behind.
   */
  putStream(key: string, body: Readable, contentType: string): Promise<void>;
  /**
   * The objects whose keys start with `prefix` (which ends in `/`), with when each was last
   * written. For sweeps of small prefixes (`incoming/`): it reads the whole listing.
   */
  list(prefix: string): Promise<ListedObject[]>;
}

export interface ListedObject {
  key: string;
  lastModified: Date;
}
