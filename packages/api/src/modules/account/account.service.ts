/**
 * Leaving with your data: the data export (requested here, built in the background by
 * account.export.ts, downloaded from GET /exports/<id>) and the deletion of an account.
 *
 * A deleted account leaves a tombstone row (its id, "Deleted user", placeholders that cannot be
 * registered or logged into): direct messages the member sent stay with their receivers, shown
 * as from "Deleted user". Everything else of theirs is deleted in one transaction, counters on
 * other members' posts and gallery items included, and their username is held for 30 days by
 * its hash only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AccountExport, type IAccountExport, User } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TRPCError } from '@trpc/server';
import { type AuthedContext, type Context, publishEvent, sentWithWrite } from '../../context.js';
import { badRequest } from '../../errors.js';
import { enforceRateLimit } from '../../trpc.js';
import { verifyPassword } from '../auth/password.js';
import { buildExport } from './account.export.js';
import { DELETED_USERNAME_PREFIX, type DeleteAccountInput } from './account.schema.js';

/** How long the username of a deleted account cannot be registered again. */
export const USERNAME_HOLD_MS = 30 * 24 * 60 * 60 * 1000;
/** A build whose row has not moved for this long died with its process: it counts as failed. */
export const EXPORT_STALE_MS = 2 * 60 * 1000;
export const DELETED_USER_NAME = 'Deleted user';
export const WRONG_PASSWORD = 'Password is incorrect';

export interface AccountExportDto {
  id: string;
  status: IAccountExport['status'];
  progress: number;
  size: number | null;
  createdAt: Date;
  finishedAt: Date | null;
  downloadUrl: string | null;
}

export function exportDownloadPath(exportId: string): string {
  return `/exports/${exportId}`;
}

function isStale(row: IAccountExport, now: Date): boolean {
  return (
    (row.status === 'queued' || row.status === 'running') &&
    now.getTime() - row.updatedAt.getTime() > EXPORT_STALE_MS
  );
}

function toExportDto(row: IAccountExport, now: Date): AccountExportDto {
  const status = isStale(row, now) ? 'failed' : row.status;
  return {
    id: row.id,
    status,
    progress: status === 'done' ? 100 : row.progress,
    size: status === 'done' ? (row.size ?? null) : null,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt ?? null,
    downloadUrl: status === 'done' ? exportDownloadPath(row.id) : null,
  };
}

function latestExport(em: EntityManager, userId: string): Promise<IAccountExport | null> {
  return em.findOne(AccountExport, { user: userId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

/** The caller's newest export, or null before their first. */
export async function getExport(ctx: AuthedContext): Promise<AccountExportDto | null> {
  const row = await latestExport(ctx.em, ctx.session.user.id);
  return row ? toExportDto(row, ctx.now()) : null;
}

/**
 * Starts building an export and answers at once with its state. While one is being built the
 * same one is returned. A new one replaces the previous archive (its file is deleted).
 */
export async function requestExport(ctx: AuthedContext): Promise<AccountExportDto> {
  const userId = ctx.session.user.id;
  await enforceRateLimit(ctx, 'dataExport', userId);
  const now = ctx.now();
  const current = await latestExport(ctx.em, userId);
  if (current && (current.status === 'queued' || current.status === 'running') && !isStale(current, now)) {
    return toExportDto(current, now);
  }
  const previous = await ctx.em.find(AccountExport, { user: userId });
  const row = ctx.em.create(AccountExport, {
    user: ctx.em.getReference(User, userId),
    status: 'queued',
    progress: 0,
    createdAt: now,
    updatedAt: now,
  });
  for (const old of previous) ctx.em.remove(old);
  await ctx.em.flush();
  for (const old of previous) if (old.objectKey) await removeObject(ctx, old.objectKey);

  // Not awaited: the archive is built after the answer, on a fork of its own.
  void buildExport(
    {
      em: ctx.fork(),
      storage: ctx.storage,
      now: ctx.now,
      ...(ctx.logError ? { logError: ctx.logError } : {}),
    },
    row.id,
  );
  return toExportDto(row, now);
}

/** A finished export is kept this long, then its archive is deleted (sweepExpiredExports). */
export const EXPORT_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes exports finished (or failed) more than 7 days ago, file and row: an archive of someone's
 * data should not outlive its use. Returns how many went. The host calls it periodically.
 */
export async function sweepExpiredExports(
  em: EntityManager,
  storage: Context['storage'],
  now: Date,
  logError?: (message: string, error: unknown) => void,
): Promise<number> {
  const cutoff = new Date(now.getTime() - EXPORT_KEEP_MS);
  const gone = await em.execute<{ object_key: string | null }[]>(
    `delete from account_exports where status in ('done', 'failed') and updated_at < ? returning object_key`,
    [cutoff],
  );
  for (const row of gone) {
    if (row.object_key) await removeObject({ storage, ...(logError ? { logError } : {}) }, row.object_key);
  }
  return gone.length;
}

/** The object key and owner's username of a finished export of `userId`, for the download route. */
export async function findExportDownload(
  em: EntityManager,
  userId: string,
  exportId: string,
): Promise<{ objectKey: string; size: number; username: string; finishedAt: Date } | null> {
  const [row] = await em.execute<
    { object_key: string; size: string | number; username: string; finished_at: Date }[]
  >(
    `select e.object_key, e.size, u.username, e.finished_at
       from account_exports e join users u on u.id = e.user_id
      where e.id = ? and e.user_id = ? and e.status = 'done' and e.object_key is not null`,
    [exportId, userId],
  );
  return row
    ? {
        objectKey: row.object_key,
        size: Number(row.size),
        username: row.username,
        finishedAt: new Date(row.finished_at),
      }
    : null;
}

async function removeObject(ctx: Pick<Context, 'storage' | 'logError'>, key: string): Promise<void> {
  try {
    await ctx.storage.remove(key);
  } catch (error) {
    ctx.logError?.(`object ${key} not removed`, error);
  }
}

function usernameHash(username: string): string {
  return createHash('sha256').update(username.toLowerCase(), 'utf8').digest('hex');
}

/** True while `username` belonged to an account deleted less than 30 days ago. */
export async function isUsernameHeld(em: EntityManager, username: string, now: Date): Promise<boolean> {
  const rows = await em.execute<unknown[]>(
    'select 1 from held_usernames where username_hash = ? and free_at > ?',
    [usernameHash(username), now],
  );
  return rows.length > 0;
}

// The words of the member's names, posts and gallery titles, as the search vocabulary
// (search_words) stores them; kept in a temporary table until the rows are gone.
const COLLECT_WORDS = `create temporary table account_gone_words on commit drop as
  select distinct w as word
    from (select regexp_split_to_table(lower(cubes_unaccent(coalesce(body, ''))), '[^[:alnum:]]+') as w
            from (select ? as body
                  union all select content from posts where author_id = ?
                  union all select title from ai_media where creator_id = ?) bodies) words
   where char_length(w) between 3 and 40 and w !~ '[0-9]'`;

// Vocabulary words no remaining row uses (by its search vector) leave with the member. A word
// whose query is empty (a stop word) is kept: it cannot be told apart.
const PRUNE_WORDS = `delete from search_words s using account_gone_words g
  where s.word = g.word
    and numnode(plainto_tsquery('cubes_search', g.word)) > 0
    and not exists (select 1 from posts p where p.search_vector @@ plainto_tsquery('cubes_search', g.word))
    and not exists (select 1 from users u where u.search_vector @@ plainto_tsquery('cubes_search', g.word))
    and not exists (select 1 from ai_media m where m.search_vector @@ plainto_tsquery('cubes_search', g.word))`;

/**
 * Deletes the caller's account after checking their password: every row of theirs goes (posts
 * with their likes, comments and notifications; their likes, comments, follows, favourites,
 * gallery items, Cubey chats, uploads, exports, reset codes and sessions), the counters they
 * contributed to go down, the user row becomes a tombstone, the username is held for 30 days,
 * and every session ends on every instance. Stored files are deleted after the commit.
 */
export async function deleteAccount(ctx: AuthedContext, input: DeleteAccountInput): Promise<{ ok: true }> {
  const userId = ctx.session.user.id;
  // Its own bucket, and the one every password check of the member shares (settings too).
  await enforceRateLimit(ctx, 'passwordCheck', userId);
  await enforceRateLimit(ctx, 'accountDelete', userId);
  const user = await ctx.em.findOne(User, { id: userId, deletedAt: null }, { populate: ['passwordHash'] });
  if (!user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'You need to be logged in' });
  if (!(await verifyPassword(user.passwordHash, input.password))) throw badRequest(WRONG_PASSWORD);
  const now = ctx.now();

  const { objectKeys, notified } = await ctx.em.transactional(async (em) => {
    // Locks the row: a second deletion waits here and then finds it deleted.
    const [me] = await em.execute<{ username: string; display_name: string }[]>(
      'select username, display_name from users where id = ? and deleted_at is null for update',
      [userId],
    );
    if (!me) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'You need to be logged in' });
    const uploads = await em.execute<{ key: string; thumb_key: string | null }[]>(
      'select key, thumb_key from uploaded_objects where owner_id = ?',
      [userId],
    );
    const exports = await em.execute<{ object_key: string }[]>(
      'select object_key from account_exports where user_id = ? and object_key is not null',
      [userId],
    );
    // Members whose bell changes: notifications the member caused on their side go.
    const recipients = await em.execute<{ recipient_id: string }[]>(
      'select distinct recipient_id from notifications where actor_id = ?',
      [userId],
    );
    await em.execute(COLLECT_WORDS, [`${me.username} ${me.display_name}`, userId, userId]);

    // Counters on what stays (other members' posts and gallery items) go down with the rows.
    await em.execute(
      `update posts p set likes_count = p.likes_count - l.n
         from (select post_id, count(*)::int as n from likes where user_id = ? group by post_id) l
        where p.id = l.post_id and p.author_id <> ?`,
      [userId, userId],
    );
    await em.execute(
      `update posts p set comments_count = p.comments_count - c.n
         from (select post_id, count(*)::int as n from comments where author_id = ? group by post_id) c
        where p.id = c.post_id and p.author_id <> ?`,
      [userId, userId],
    );
    await em.execute(
      `update ai_media m set favorites_count = m.favorites_count - f.n
         from (select media_id, count(*)::int as n from favorites where user_id = ? group by media_id) f
        where m.id = f.media_id and m.creator_id <> ?`,
      [userId, userId],
    );

    const deletions: [string, number][] = [
      ['delete from notifications where actor_id = ? or recipient_id = ?', 2],
      ['delete from likes where user_id = ?', 1],
      ['delete from comments where author_id = ?', 1],
      // Their posts take the likes, comments and notifications on them along (foreign keys).
      ['delete from posts where author_id = ?', 1],
      ['delete from follows where follower_id = ? or followee_id = ?', 2],
      ['delete from favorites where user_id = ?', 1],
      ['delete from ai_media where creator_id = ?', 1],
      ['delete from chat_sessions where owner_id = ?', 1],
      ['delete from password_resets where user_id = ?', 1],
      ['delete from uploaded_objects where owner_id = ?', 1],
      ['delete from account_exports where user_id = ?', 1],
      ['delete from sessions where user_id = ?', 1],
      ['delete from blocks where blocker_id = ? or blocked_id = ?', 2],
      ['delete from mutes where muter_id = ? or muted_id = ?', 2],
      // Reports they filed, and reports about them (the reported content is gone with them).
      ['delete from reports where reporter_id = ? or target_user_id = ?', 2],
    ];
    for (const [sql, count] of deletions) await em.execute(sql, Array(count).fill(userId));
    // The moderators' audit log keeps what was done, but not the member's name.
    await em.execute('update moderation_actions set moderator_username = ? where moderator_id = ?', [
      DELETED_USER_NAME,
      userId,
    ]);
    await em.execute('update moderation_actions set target_username = ? where target_user_id = ?', [
      DELETED_USER_NAME,
      userId,
    ]);

    // The tombstone: its username and '@deleted.invalid' cannot be registered, '!' is no password hash.
    await em.execute(
      `update users set username = ?, display_name = ?, email = ?, password_hash = '!', bio = null,
              avatar_url = null, header_url = null, email_visible = false, messages_from = 'nobody',
              deleted_at = ?
        where id = ?`,
      [
        `${DELETED_USERNAME_PREFIX}${randomBytes(14).toString('hex')}`,
        DELETED_USER_NAME,
        `${userId}@deleted.invalid`,
        now,
        userId,
      ],
    );
    await em.execute(
      `insert into held_usernames (username_hash, free_at) values (?, ?)
       on conflict (username_hash) do update set free_at = excluded.free_at`,
      [usernameHash(me.username), new Date(now.getTime() + USERNAME_HOLD_MS)],
    );
    await em.execute(PRUNE_WORDS, []);
    // Sockets on the member's sessions close on every instance when this commits.
    await ctx.bus.publish('sessions', { userId }, em);
    return {
      objectKeys: [
        ...uploads.flatMap((u) => (u.thumb_key ? [u.key, u.thumb_key] : [u.key])),
        ...exports.map((e) => e.object_key),
      ],
      notified: recipients.map((r) => r.recipient_id),
    };
  });

  sentWithWrite(ctx, 'sessions', { userId });
  ctx.response.clearSessionCookie();
  for (const key of objectKeys) await removeObject(ctx, key);
  publishEvent(ctx, 'accounts', { userId, change: 'deleted' });
  for (const recipientId of notified) publishEvent(ctx, 'notifications', { recipientId });
  return { ok: true };
}
