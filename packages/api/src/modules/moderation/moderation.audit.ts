/**
 * The moderators' audit log: every action writes one row in its own transaction, with the
 * moderator's and the target's usernames copied in, so the log still reads right after an
 * account is gone. Rows are only ever added; the log reads newest first.
 */
import { randomUUID } from 'node:crypto';
import type { ModerationActionType, ReportTargetType } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page, PageInput } from '../../paging.js';
import type { ModeratorContext } from './moderation.access.js';
import { insertAudit, type LogRow, logKeyset, logRows } from './moderation.repository.js';
import type { ModerationLogEntry } from './moderation.schema.js';

export function toLogEntry(row: LogRow): ModerationLogEntry {
  return {
    id: row.id,
    action: row.action,
    moderatorUsername: row.moderator_username,
    targetType: row.target_type,
    targetId: row.target_id,
    targetUsername: row.target_username,
    note: row.note,
    suspendedUntil: row.suspended_until ? new Date(row.suspended_until) : null,
    createdAt: new Date(row.created_at),
  };
}

/** The audit log, newest first. */
export async function listLog(ctx: ModeratorContext, input: PageInput): Promise<Page<ModerationLogEntry>> {
  const cursor = logKeyset.decode(input.cursor);
  const found = await logRows(ctx.em, { cursor, limit: input.limit });
  return logKeyset.page(found, input.limit, toLogEntry, (row) => ({ createdAt: row.created_at, id: row.id }));
}

export interface AuditInput {
  action: ModerationActionType;
  reportId: string | null;
  targetType: ReportTargetType;
  targetId: string;
  targetUserId: string | null;
  note: string;
  suspendedUntil?: Date | null;
  at: Date;
}

/** Writes one audit row in the action's transaction (`em`); the usernames are copied as they are now. */
export async function audit(
  em: EntityManager,
  ctx: ModeratorContext,
  input: AuditInput,
): Promise<ModerationLogEntry> {
  const row = await insertAudit(em, {
    id: randomUUID(),
    moderatorId: ctx.session.user.id,
    moderatorUsername: ctx.session.user.username,
    action: input.action,
    reportId: input.reportId,
    targetType: input.targetType,
    targetId: input.targetId,
    targetUserId: input.targetUserId,
    note: input.note,
    suspendedUntil: input.suspendedUntil ?? null,
    at: input.at,
  });
  return toLogEntry(row);
}
