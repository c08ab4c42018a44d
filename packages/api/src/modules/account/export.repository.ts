/**
 * The data export's statements: its rows (requested, built, swept) and the reads that fill the
 * archive (account.export.ts), a table of one statement per part: only the member's own rows,
 * other members by id and username alone.
 */
import { AccountExport, type IAccountExport, User } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, raw, rows, type Sql, sql } from '../../sql.js';

export function latestExport(em: EntityManager, userId: string): Promise<IAccountExport | null> {
  return em.findOne(AccountExport, { user: userId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

/**
 * A new queued export for `userId`, written with the removal of every earlier one (one flush);
 * the earlier rows, whose files the caller deletes.
 */
export async function replaceExports(
  em: EntityManager,
  userId: string,
  now: Date,
): Promise<{ row: IAccountExport; previous: IAccountExport[] }> {
  const previous = await em.find(AccountExport, { user: userId });
  const row = em.create(AccountExport, {
    user: em.getReference(User, userId),
    status: 'queued',
    progress: 0,
    createdAt: now,
    updatedAt: now,
  });
  for (const old of previous) em.remove(old);
  await em.flush();
  return { row, previous };
}

/** Deletes exports finished or failed before `cutoff`; their files' keys. */
export function deleteExportsBefore(
  em: EntityManager,
  cutoff: Date,
): Promise<{ object_key: string | null }[]> {
  return rows(
    em,
    sql`delete from account_exports where status in ('done', 'failed') and updated_at < ${cutoff} returning object_key`,
  );
}

export function findDoneExport(
  em: EntityManager,
  userId: string,
  exportId: string,
): Promise<{ object_key: string; size: string | number; username: string; finished_at: Date } | undefined> {
  return firstRow(
    em,
    sql`select e.object_key, e.size, u.username, e.finished_at
       from account_exports e join users u on u.id = e.user_id
      where e.id = ${exportId} and e.user_id = ${userId} and e.status = 'done' and e.object_key is not null`,
  );
}

/**
 * Takes a queued export for building, or a running one whose row has not moved since
 * `takeOverBefore` (its build died); its owner, or undefined when there is nothing to take.
 */
export function startExport(
  em: EntityManager,
  exportId: string,
  now: Date,
  takeOverBefore: Date | null = null,
): Promise<{ user_id: string } | undefined> {
  return firstRow(
    em,
    sql`update account_exports set status = 'running', progress = 0, updated_at = ${now}
        where id = ${exportId}
          and (status = 'queued' or (status = 'running' and updated_at < ${takeOverBefore}::timestamptz))
        returning user_id`,
  );
}

export async function exportStatus(em: EntityManager, exportId: string): Promise<string | undefined> {
  const row = await firstRow<{ status: string }>(
    em,
    sql`select status from account_exports where id = ${exportId}`,
  );
  return row?.status;
}

/** A running build's heartbeat. */
export async function touchExport(em: EntityManager, exportId: string, now: Date): Promise<void> {
  await rows(
    em,
    sql`update account_exports set updated_at = ${now} where id = ${exportId} and status = 'running'`,
  );
}

/** A failed build with a retry to come: back to 'queued', from the start. */
export async function requeueExport(em: EntityManager, exportId: string, now: Date): Promise<void> {
  await rows(
    em,
    sql`update account_exports set status = 'queued', progress = 0, updated_at = ${now} where id = ${exportId} and status = 'running'`,
  );
}

export async function setExportProgress(
  em: EntityManager,
  exportId: string,
  progress: number,
  now: Date,
): Promise<void> {
  await rows(
    em,
    sql`update account_exports set status = 'running', progress = ${progress}, updated_at = ${now} where id = ${exportId}`,
  );
}

/** Marks a build done; false when the row went meanwhile (with its account). */
export async function finishExport(
  em: EntityManager,
  exportId: string,
  done: { objectKey: string; size: number; at: Date; finishedAt: Date },
): Promise<boolean> {
  const marked = await rows(
    em,
    sql`update account_exports
          set status = 'done', progress = 100, object_key = ${done.objectKey}, size = ${done.size}, updated_at = ${done.at}, finished_at = ${done.finishedAt}, error = null
        where id = ${exportId} returning id`,
  );
  return marked.length > 0;
}

export async function failExport(
  em: EntityManager,
  exportId: string,
  error: string,
  now: Date,
): Promise<void> {
  await rows(
    em,
    sql`update account_exports set status = 'failed', error = ${error}, updated_at = ${now} where id = ${exportId}`,
  );
}

// --- the archive's reads ---

/** A row as the archive reads it: mapped to JSON by account.export.ts. */
export type ExportRow = Record<string, unknown>;

/** How a member other than the exporter is named: a deleted account is "Deleted user". */
const PEER_NAME = raw(`case when u.deleted_at is null then u.username else null end`);

/** Each part of the archive: the statement reading the member's rows of it, oldest first. */
const ARCHIVE_READS = {
  profile: (userId) =>
    sql`select id, username, display_name, email, bio, avatar_url, header_url, email_visible,
                  messages_from, created_at
             from users where id = ${userId}`,
  posts: (userId) =>
    sql`select id, content, image_url, images, likes_count, comments_count, created_at
               from posts where author_id = ${userId} order by created_at, id`,
  comments: (userId) =>
    sql`select id, post_id, content, created_at from comments where author_id = ${userId} order by created_at, id`,
  likes: (userId) =>
    sql`select post_id, created_at from likes where user_id = ${userId} order by created_at, post_id`,
  /** The posts the member reposted. */
  reposts: (userId) =>
    sql`select post_id, created_at from reposts where user_id = ${userId} order by created_at, post_id`,
  /** The posts the member bookmarked: only theirs, so it is in their archive and nowhere else. */
  bookmarks: (userId) =>
    sql`select post_id, created_at from bookmarks where user_id = ${userId} order by created_at, post_id`,
  following: (userId) =>
    sql`select u.id, u.username, f.created_at from follows f join users u on u.id = f.followee_id
            where f.follower_id = ${userId} and u.deleted_at is null order by f.created_at, u.id`,
  followers: (userId) =>
    sql`select u.id, u.username, f.created_at from follows f join users u on u.id = f.follower_id
            where f.followee_id = ${userId} and u.deleted_at is null order by f.created_at, u.id`,
  favorites: (userId) =>
    sql`select m.id, m.type, m.title, m.image_url, f.created_at
               from favorites f join ai_media m on m.id = f.media_id
              where f.user_id = ${userId} order by f.created_at, m.id`,
  gallery: (userId) =>
    sql`select id, type, title, image_url, created_at from ai_media where creator_id = ${userId} order by created_at, id`,
  messages: (userId) =>
    sql`select d.id, d.sender_id, d.content, d.created_at, d.read_at, u.id as peer_id,
                    ${PEER_NAME} as peer_username
               from direct_messages d
               join users u on u.id = case when d.sender_id = ${userId} then d.receiver_id else d.sender_id end
              where d.sender_id = ${userId} or d.receiver_id = ${userId}
              order by d.created_at, d.id`,
  chatSessions: (userId) =>
    sql`select id, title, created_at, updated_at from chat_sessions where owner_id = ${userId} order by created_at, id`,
  chatMessages: (userId) =>
    sql`select m.session_id, m.role, m.content, m.status, m.created_at
             from chat_messages m join chat_sessions s on s.id = m.session_id
            where s.owner_id = ${userId} order by m.created_at, m.id`,
  uploads: (userId) =>
    sql`select key, content_type, size, width, height, created_at from uploaded_objects
          where owner_id = ${userId} and visibility = 'public' order by created_at, key`,
} satisfies Record<string, (userId: string) => Sql>;

export type ArchivePart = keyof typeof ARCHIVE_READS;

/** The member's rows of one part of the archive. */
export function readArchive(em: EntityManager, part: ArchivePart, userId: string): Promise<ExportRow[]> {
  return rows(em, ARCHIVE_READS[part](userId));
}
