/**
 * The moderators' queue: open reports, oldest first, each with the reported item in context (a
 * comment under its post, a message after the few before it, a member's profile). Removed rows
 * are shown, marked, since moderators judge them.
 */
import type { ReportTargetType } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page, PageInput } from '../../paging.js';
import type { ModeratorContext } from './moderation.access.js';
import {
  type ContextRow,
  commentContext,
  messageContext,
  openReportRows,
  postContext,
  profileContext,
  queueKeyset,
  type ReportRow,
} from './moderation.repository.js';
import type { ContextEntry, OpenReport } from './moderation.schema.js';

/** How many earlier messages of the conversation a reported message is shown with. */
const MESSAGE_CONTEXT = 3;

function entry(row: ContextRow, kind: ContextEntry['kind'], reportedId: string): ContextEntry {
  return {
    id: row.id,
    kind,
    username: row.username,
    content: row.content,
    imageUrl: row.image_url,
    createdAt: new Date(row.created_at),
    reported: row.id === reportedId,
    removed: row.removed,
  };
}

/** The reported item and what a moderator needs to judge it. */
async function contextOf(em: EntityManager, type: ReportTargetType, id: string): Promise<ContextEntry[]> {
  if (type === 'post') return (await postContext(em, id)).map((r) => entry(r, 'post', id));
  if (type === 'comment') {
    const comment = await commentContext(em, id);
    if (!comment) return [];
    const posts = await postContext(em, comment.post_id);
    return [...posts.map((r) => entry(r, 'post', id)), entry(comment, 'comment', id)];
  }
  if (type === 'message') {
    return (await messageContext(em, id, MESSAGE_CONTEXT)).reverse().map((r) => entry(r, 'message', id));
  }
  return (await profileContext(em, id)).map((r) => entry(r, 'profile', id));
}

function toOpenReport(row: ReportRow, context: ContextEntry[]): OpenReport {
  return {
    id: row.id,
    targetType: row.target_type,
    targetId: row.target_id,
    reason: row.reason,
    createdAt: new Date(row.created_at),
    reporter: {
      id: row.reporter_id,
      username: row.reporter_username,
      displayName: row.reporter_display_name,
    },
    targetUser: {
      id: row.user_id,
      username: row.username,
      displayName: row.display_name,
      avatarUrl: row.avatar_url,
      suspension:
        row.suspended_now && row.suspended_at
          ? {
              since: new Date(row.suspended_at),
              until: row.suspended_until ? new Date(row.suspended_until) : null,
            }
          : null,
    },
    openReportsOnItem: row.open_on_item,
    context,
  };
}

export async function listOpenReports(ctx: ModeratorContext, input: PageInput): Promise<Page<OpenReport>> {
  const cursor = queueKeyset.decode(input.cursor);
  const found = await openReportRows(ctx.em, { now: ctx.now(), cursor, limit: input.limit });
  const page = queueKeyset.page(
    found,
    input.limit,
    (row) => row,
    (row) => ({ createdAt: row.created_at, id: row.id }),
  );
  // One context query per report: a page is at most 50 reports, read by a few moderators.
  const items = await Promise.all(
    page.items.map(async (row) => toOpenReport(row, await contextOf(ctx.em, row.target_type, row.target_id))),
  );
  return { items, nextCursor: page.nextCursor };
}
