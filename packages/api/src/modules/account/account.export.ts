/**
 * Builds a member's "Download my data" archive in the background: their profile, posts,
 * comments, likes, bookmarks, follows, favourites, gallery items, direct messages, Cubey chats and uploads
 * as JSON, plus the uploaded files themselves. Only the member's own rows go in; other members
 * appear by public id and username alone (never their e-mail, chats or other conversations).
 * Progress (0–100) is written to the export's row as sections and files are added.
 *
 * The archive is streamed (yazl): each upload is read from storage as a stream, one at a time,
 * and the zip goes to storage (putStream) as it is written, so memory stays bounded however many
 * files a member has. Uploads are stored as they are (images are already compressed); the JSON
 * is deflated. Past 4 GiB or 65,535 files yazl switches to ZIP64 by itself.
 *
 * With a job runner the build is a queued job (jobs.handlers.ts) with retries: a running build
 * touches its row every `heartbeatMs`, so a retry on another instance can tell a build whose
 * process died (row silent) from one still going, and take the first over.
 */
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { StorageDriver } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ZipFile } from 'yazl';
import { postImagesOf } from '../posts/post.serializer.js';
import { findPreferences } from '../push/push.repository.js';
import * as repo from './export.repository.js';

export interface ExportDeps {
  /** A fork of its own: the build outlives the request that started it. */
  em: EntityManager;
  storage: StorageDriver;
  now: () => Date;
  logError?: (message: string, error: unknown) => void;
  /** How often a running build touches its row. Default EXPORT_HEARTBEAT_MS. */
  heartbeatMs?: number;
  /** A pause after each JSON section (tests slow builds down to stop them midway). */
  stepDelayMs?: number;
}

export interface BuildOptions {
  /** A build whose row has been silent this long died with its process: this one takes it over. */
  takeOverAfterMs?: number;
  /**
   * True (the default): a failure marks the export failed. False: a retry follows, so the export
   * goes back to 'queued' and the promise rejects with the cause.
   */
  lastAttempt?: boolean;
  /** Called once this build has taken the export. */
  onStart?: () => void;
}

/**
 * 'done' or 'failed': this build ended the export so. 'skipped': nothing to build (already built,
 * failed, or gone with its account). 'busy': another build is running it and alive.
 */
export type BuildOutcome = 'done' | 'failed' | 'skipped' | 'busy';

export const EXPORT_HEARTBEAT_MS = 5_000;

/** Written to the row at most this often while files are added. */
const PROGRESS_EVERY_MS = 250;

export const EXPORT_FAILED = 'The export could not be built. Please try again.';

export function exportObjectKey(exportId: string): string {
  return `exports/${exportId}.zip`;
}

type Row = repo.ExportRow;

interface Section {
  file: string;
  load: (em: EntityManager, userId: string) => Promise<unknown>;
}

function iso(value: unknown): string | null {
  return value == null ? null : new Date(value as string).toISOString();
}

const SECTIONS: Section[] = [
  {
    file: 'profile.json',
    load: async (em, userId) => {
      const u = (await repo.readArchive(em, 'profile', userId))[0];
      if (!u) throw new Error('member not found');
      return {
        id: u.id,
        username: u.username,
        displayName: u.display_name,
        email: u.email,
        bio: u.bio,
        avatarUrl: u.avatar_url,
        headerUrl: u.header_url,
        emailVisible: u.email_visible,
        messagesFrom: u.messages_from,
        // which kinds of notification may reach your devices as pushes
        pushNotifications: await findPreferences(em, userId),
        createdAt: iso(u.created_at),
      };
    },
  },
  {
    file: 'posts.json',
    load: async (em, userId) =>
      (await repo.readArchive(em, 'posts', userId)).map((r) => ({
        id: r.id,
        content: r.content,
        imageUrl: r.image_url,
        // each image's path, stored size and description, in order
        images: postImagesOf(r as Parameters<typeof postImagesOf>[0]).map(({ url, width, height, alt }) => ({
          url,
          width,
          height,
          alt,
        })),
        likesCount: r.likes_count,
        commentsCount: r.comments_count,
        createdAt: iso(r.created_at),
      })),
  },
  {
    file: 'comments.json',
    load: async (em, userId) =>
      (await repo.readArchive(em, 'comments', userId)).map((r) => ({
        id: r.id,
        postId: r.post_id,
        content: r.content,
        createdAt: iso(r.created_at),
      })),
  },
  {
    file: 'likes.json',
    load: async (em, userId) =>
      (await repo.readArchive(em, 'likes', userId)).map((r) => ({
        postId: r.post_id,
        createdAt: iso(r.created_at),
      })),
  },
  {
    file: 'reposts.json',
    load: async (em, userId) =>
      (await repo.readArchive(em, 'reposts', userId)).map((r) => ({
        postId: r.post_id,
        createdAt: iso(r.created_at),
      })),
  },
  {
    file: 'bookmarks.json',
    load: async (em, userId) =>
      (await repo.readArchive(em, 'bookmarks', userId)).map((r) => ({
        postId: r.post_id,
        createdAt: iso(r.created_at),
      })),
  },
  {
    file: 'follows.json',
    load: async (em, userId) => {
      const following = await repo.readArchive(em, 'following', userId);
      const followers = await repo.readArchive(em, 'followers', userId);
      const person = (r: Row) => ({ userId: r.id, username: r.username, since: iso(r.created_at) });
      return { following: following.map(person), followers: followers.map(person) };
    },
  },
  {
    file: 'favorites.json',
    load: async (em, userId) =>
      (await repo.readArchive(em, 'favorites', userId)).map((r) => ({
        mediaId: r.id,
        type: r.type,
        title: r.title,
        imageUrl: r.image_url,
        createdAt: iso(r.created_at),
      })),
  },
  {
    file: 'gallery.json',
    load: async (em, userId) =>
      (await repo.readArchive(em, 'gallery', userId)).map((r) => ({
        id: r.id,
        type: r.type,
        title: r.title,
        imageUrl: r.image_url,
        createdAt: iso(r.created_at),
      })),
  },
  {
    file: 'messages.json',
    load: async (em, userId) =>
      (await repo.readArchive(em, 'messages', userId)).map((r) => ({
        id: r.id,
        direction: r.sender_id === userId ? 'sent' : 'received',
        peer: { userId: r.peer_id, username: r.peer_username ?? 'Deleted user' },
        content: r.content,
        createdAt: iso(r.created_at),
        readAt: iso(r.read_at),
      })),
  },
  {
    file: 'cubey-chats.json',
    load: async (em, userId) => {
      const sessions = await repo.readArchive(em, 'chatSessions', userId);
      const messages = await repo.readArchive(em, 'chatMessages', userId);
      return sessions.map((s) => ({
        id: s.id,
        title: s.title,
        createdAt: iso(s.created_at),
        updatedAt: iso(s.updated_at),
        messages: messages
          .filter((m) => m.session_id === s.id)
          .map((m) => ({ role: m.role, content: m.content, status: m.status, createdAt: iso(m.created_at) })),
      }));
    },
  },
];

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const README = `Your data from Cubes AI

profile.json      your profile and settings (push notification kinds included)
posts.json        your posts
comments.json     your comments (postId names the post)
likes.json        the posts you liked
reposts.json      the posts you reposted
bookmarks.json    the posts you bookmarked (only you see them)
follows.json      whom you follow and who follows you
favorites.json    gallery items you favourited
gallery.json      gallery items you created
messages.json     your direct messages, sent and received
cubey-chats.json  your conversations with Cubey
uploads.json      your uploaded images; the files are in uploads/
`;

/** Passes the archive on to storage, counting its bytes (the export's size). */
class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

function setProgress(em: EntityManager, exportId: string, progress: number, now: Date): Promise<void> {
  return repo.setExportProgress(em, exportId, Math.min(99, Math.max(0, Math.floor(progress))), now);
}

/**
 * Builds export `exportId` to the end: the zip goes to storage and the row to 'done', or the row
 * to 'failed' (the cause is logged, never shown). Never throws on its last attempt (the default).
 */
export async function buildExport(
  deps: ExportDeps,
  exportId: string,
  options: BuildOptions = {},
): Promise<BuildOutcome> {
  const { em, storage, now } = deps;
  const lastAttempt = options.lastAttempt ?? true;
  let archive: ByteCounter | null = null;
  let stored: Promise<void> | null = null;
  let source: Readable | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  try {
    const takeOverBefore =
      options.takeOverAfterMs === undefined ? null : new Date(now().getTime() - options.takeOverAfterMs);
    const job = await repo.startExport(em, exportId, now(), takeOverBefore);
    if (!job) {
      // Built, failed or gone with its account; or being built by a live build.
      return (await repo.exportStatus(em, exportId)) === 'running' ? 'busy' : 'skipped';
    }
    const userId = job.user_id;
    options.onStart?.();
    heartbeat = setInterval(() => {
      repo
        .touchExport(em, exportId, now())
        .catch((error: unknown) => deps.logError?.(`data export ${exportId}: heartbeat not saved`, error));
    }, deps.heartbeatMs ?? EXPORT_HEARTBEAT_MS);
    heartbeat.unref();
    const stamp = now();
    const zip = new ZipFile();
    const out = new ByteCounter();
    archive = out;
    zip.outputStream.pipe(out);
    zip.on('error', (error: unknown) => out.destroy(error as Error));
    const objectKey = exportObjectKey(exportId);
    stored = storage.putStream(objectKey, out, 'application/zip');
    // Settles only when storage stopped taking the archive before its end (it failed).
    const storageStopped = stored.then(() => {
      throw new Error('storage ended the archive early');
    });
    storageStopped.catch(() => {});
    const text = (name: string, body: string) =>
      zip.addBuffer(Buffer.from(body, 'utf8'), name, { mtime: stamp });
    text('README.txt', README);

    const uploads = await repo.readArchive(em, 'uploads', userId);
    const steps = SECTIONS.length + uploads.length + 1;
    let done = 0;
    let written = Date.now();
    const step = async (force = false) => {
      done += 1;
      if (force || Date.now() - written >= PROGRESS_EVERY_MS) {
        written = Date.now();
        await setProgress(em, exportId, (done / steps) * 100, now());
      }
    };

    for (const section of SECTIONS) {
      text(section.file, `${JSON.stringify(await section.load(em, userId), null, 2)}\n`);
      await step(true);
      if (deps.stepDelayMs) await new Promise((resolve) => setTimeout(resolve, deps.stepDelayMs));
    }
    const files: unknown[] = [];
    for (const upload of uploads) {
      const key = String(upload.key);
      const id = key.slice(key.lastIndexOf('/') + 1);
      const file = `uploads/${id}.${EXTENSIONS[String(upload.content_type)] ?? 'bin'}`;
      source = await storage.createReadStream(key).catch(() => null);
      const found = source !== null;
      if (source) {
        // One file at a time: the next is opened once this one has gone into the archive.
        zip.addReadStream(source, file, { compress: false, mtime: stamp });
        await Promise.race([finished(source), storageStopped]);
        source = null;
      }
      files.push({
        file: found ? file : null,
        objectPath: `/objects/${key}`,
        contentType: upload.content_type,
        size: upload.size,
        width: upload.width,
        height: upload.height,
        createdAt: iso(upload.created_at),
      });
      await step();
    }
    text('uploads.json', `${JSON.stringify(files, null, 2)}\n`);
    zip.end();
    await stored;

    const marked = await repo.finishExport(em, exportId, {
      objectKey,
      size: out.bytes,
      at: now(),
      finishedAt: now(),
    });
    // The account (and with it the row) went while this was built: the file must not stay.
    if (!marked) await storage.remove(objectKey);
    return marked ? 'done' : 'skipped';
  } catch (error) {
    // Storage drops what it was given of the archive when the archive fails.
    source?.destroy();
    archive?.destroy(error instanceof Error ? error : new Error(String(error)));
    await stored?.catch(() => {});
    if (!lastAttempt) {
      // Truthful meanwhile: the export waits for its retry.
      await repo.requeueExport(em, exportId, now());
      throw error;
    }
    deps.logError?.(`data export ${exportId} failed`, error);
    await repo
      .failExport(em, exportId, EXPORT_FAILED, now())
      .catch((e: unknown) => deps.logError?.(`data export ${exportId} not marked failed`, e));
    return 'failed';
  } finally {
    if (heartbeat) clearInterval(heartbeat);
  }
}
