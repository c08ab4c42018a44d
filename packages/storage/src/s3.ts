/** The S3 driver (MinIO or any S3): presigned PUT URLs, the bucket created if missing. */
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import type { ListedObject, ObjectStat, StorageDriver } from './driver.js';
import { isValidKey, UPLOAD_URL_TTL_SECONDS } from './keys.js';

export interface S3StorageOptions {
  /** http(s)://host[:port] the server reaches the bucket at. */
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region?: string;
  /** http(s)://host[:port] browsers reach it at, when different (upload URLs are signed for it). */
  publicEndpoint?: string;
}

/**
 * The part size of streamed puts (putStream), each held in memory while it is sent. S3 allows
 * 10,000 parts: 16 MiB parts hold an object of up to 156 GiB.
 */
export const STREAM_PART_BYTES = 16 * 1024 * 1024;

function clientFor(endpoint: string, options: S3StorageOptions): Client {
  const url = new URL(endpoint);
  const useSSL = url.protocol === 'https:';
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region ?? 'us-east-1',
    pathStyle: true,
  });
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'NotFound' || code === 'NoSuchKey' || code === 'NoSuchObject';
}

function checked(key: string): string {
  if (!isValidKey(key)) throw new Error(`Invalid object key: ${key}`);
  return key;
}

export function createS3Storage(options: S3StorageOptions): StorageDriver {
  const client = clientFor(options.endpoint, options);
  const signer = options.publicEndpoint ? clientFor(options.publicEndpoint, options) : client;
  const { bucket } = options;
  const region = options.region ?? 'us-east-1';

  return {
    kind: 's3',
    uploadOrigin: new URL(options.publicEndpoint ?? options.endpoint).origin,
    async init() {
      if (!(await client.bucketExists(bucket))) await client.makeBucket(bucket, region);
    },
    createUploadUrl: (key, ttlSeconds = UPLOAD_URL_TTL_SECONDS) =>
      signer.presignedPutObject(bucket, checked(key), ttlSeconds),
    async stat(key): Promise<ObjectStat | null> {
      try {
        const s = await client.statObject(bucket, checked(key));
        return { size: s.size, etag: `"${s.etag.replace(/"/g, '')}"` };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async read(key) {
      const stream = await client.getObject(bucket, checked(key));
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    createReadStream: (key): Promise<Readable> => client.getObject(bucket, checked(key)),
    async put(key, data, contentType) {
      await client.putObject(bucket, checked(key), data, data.length, { 'Content-Type': contentType });
    },
    async remove(key) {
      try {
        await client.removeObject(bucket, checked(key));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },
    async list(prefix) {
      const listed: ListedObject[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, true)) {
        const { name, lastModified } = item as { name?: string; lastModified?: Date };
        if (name && isValidKey(name)) listed.push({ key: name, lastModified: lastModified ?? new Date(0) });
      }
      return listed;
    },
    async putStream(key, body, contentType) {
      // A multipart upload of our own: minio's putObject, given a stream of unknown length,
      // sizes parts for a 5 TiB object (~550 MB each, held in memory) and never hears of errors
      // on the stream. Parts here are STREAM_PART_BYTES; any failure aborts the upload.
      const objectName = checked(key);
      const uploadID = await client.initiateNewMultipartUpload(bucket, objectName, {
        'Content-Type': contentType,
      });
      const parts: { part: number; etag: string }[] = [];
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const send = async () => {
        const partNumber = parts.length + 1;
        const data = Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
        const { etag } = await client.uploadPart(
          { bucketName: bucket, objectName, uploadID, partNumber, headers: {} },
          data,
        );
        parts.push({ part: partNumber, etag });
      };
      try {
        for await (const chunk of body) {
          pending.push(chunk as Buffer);
          pendingBytes += (chunk as Buffer).length;
          if (pendingBytes >= STREAM_PART_BYTES) await send();
        }
        if (pendingBytes > 0 || parts.length === 0) await send();
        await client.completeMultipartUpload(bucket, objectName, uploadID, parts);
      } catch (error) {
        await client.abortMultipartUpload(bucket, objectName, uploadID).catch(() => {});
        throw error;
      }
    },
  };
}
