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
import type { IAccountExport } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, publishEvent, sentWithWrite } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, LOGIN_REQUIRED, unauthorized } from '../../errors.js';
import { type ExportBuildJob, JOBS } from '../../jobs/jobs.names.js';
import { enforceRateLimit } from '../../trpc.js';
import { verifyPassword } from '../auth/auth.password.js';
import type { OkResult } from '../auth/auth.schema.js';
import { buildExport } from './account.export.js';
import { type AccountExport, DELETED_USERNAME_PREFIX, type DeleteAccountInput } from './account.schema.js';
import * as deletionRepo from './deletion.repository.js';
import * as exportRepo from './export.repository.js';

/** How long the username of a deleted account cannot be registered again. */
export const USERNAME_HOLD_MS = 30 * 24 * 60 * 60 * 1000;
/** A build whose row has not moved for this long died with its process: it counts as failed. */
export const EXPORT_STALE_MS = 2 * 60 * 1000;
export const DELETED_USER_NAME = 'Deleted user';
export const WRONG_PASSWORD = ERROR_REASONS.WRONG_PASSWORD;

/** The export's state as `accountExportSchema` (account.schema.ts) names it. */
export type AccountExportDto = AccountExport;

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
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
    downloadUrl: status === 'done' ? exportDownloadPath(row.id) : null,
  };
}

/** The caller's newest export, or null before their first. */
export async function getExport(ctx: AuthedContext): Promise<AccountExportDto | null> {
  const row = await exportRepo.latestExport(ctx.em, ctx.session.user.id);
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
  const current = await exportRepo.latestExport(ctx.em, userId);
  if (current && (current.status === 'queued' || current.status === 'running') && !isStale(current, now)) {
    return toExportDto(current, now);
  }
  const { row, previous } = await exportRepo.replaceExports(ctx.em, userId, now);
  for (const old of previous) if (old.objectKey) await removeObject(ctx, old.objectKey);

  // With a job runner: a queued job, retried on another instance if this one dies. Without one
  // (unit tests, scripts): built here after the answer, on a fork of its own, not awaited.
  if (ctx.jobs) {
    await ctx.jobs.send(JOBS.exportBuild, { exportId: row.id } satisfies ExportBuildJob);
    return toExportDto(row, now);
  }
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
  const gone = await exportRepo.deleteExportsBefore(em, cutoff);
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
  const row = await exportRepo.findDoneExport(em, userId, exportId);
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
  return deletionRepo.isHeld(em, usernameHash(username), now);
}

/** Forgets held usernames whose 30 days are over (a scheduled job); how many went. */
export function releaseHeldUsernames(em: EntityManager, now: Date): Promise<number> {
  return deletionRepo.deleteFreedUsernames(em, now);
}

/**
 * Deletes the caller's account after checking their password: every row of theirs goes (posts
 * with their likes, comments and notifications; their likes, comments, follows, favourites,
 * gallery items, Cubey chats, uploads, exports, reset codes and sessions), the counters they
 * contributed to go down, the user row becomes a tombstone, the username is held for 30 days,
 * and every session ends on every instance. Stored files are deleted after the commit.
 */
export async function deleteAccount(ctx: AuthedContext, input: DeleteAccountInput): Promise<OkResult> {
  const userId = ctx.session.user.id;
  // Its own bucket, and the one every password check of the member shares (settings too).
  await enforceRateLimit(ctx, 'passwordCheck', userId);
  await enforceRateLimit(ctx, 'accountDelete', userId);
  const user = await deletionRepo.findLiveUser(ctx.em, userId);
  if (!user) throw unauthorized(LOGIN_REQUIRED);
  if (!(await verifyPassword(user.passwordHash, input.password))) throw badRequest(WRONG_PASSWORD);
  const now = ctx.now();

  const { objectKeys, notified } = await ctx.em.transactional(async (em) => {
    // Locks the row: a second deletion waits here and then finds it deleted.
    const me = await deletionRepo.lockLiveUser(em, userId);
    if (!me) throw unauthorized(LOGIN_REQUIRED);
    const { uploads, exports, recipients } = await deletionRepo.deletionLeftovers(em, userId);
    await deletionRepo.collectGoneWords(em, `${me.username} ${me.display_name}`, userId);
    await deletionRepo.lowerCountersOfOthers(em, userId);
    await deletionRepo.deleteMemberRowsEverywhere(em, userId);
    await deletionRepo.forgetInAuditLog(em, userId, DELETED_USER_NAME);
    await deletionRepo.makeTombstone(em, userId, {
      username: `${DELETED_USERNAME_PREFIX}${randomBytes(14).toString('hex')}`,
      displayName: DELETED_USER_NAME,
      email: `${userId}@deleted.invalid`,
      at: now,
    });
    await deletionRepo.holdUsername(
      em,
      usernameHash(me.username),
      new Date(now.getTime() + USERNAME_HOLD_MS),
    );
    await deletionRepo.pruneGoneWords(em);
    // Sockets on the member's sessions close on every instance when this commits.
    await ctx.bus.publish('sessions', { userId }, em);
    return {
      objectKeys: [
        ...uploads.flatMap((u) => (u.thumb_key ? [u.key, u.thumb_key] : [u.key])),
        ...exports.map((e) => e.object_key),
      ],
      notified: recipients,
    };
  });

  sentWithWrite(ctx, 'sessions', { userId });
  ctx.response.clearSessionCookie();
  for (const key of objectKeys) await removeObject(ctx, key);
  publishEvent(ctx, 'accounts', { userId, change: 'deleted' });
  for (const recipientId of notified) publishEvent(ctx, 'notifications', { recipientId });
  return { ok: true };
}
