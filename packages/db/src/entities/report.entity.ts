import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

export const REPORT_TARGET_TYPES = ['post', 'comment', 'message', 'user'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

/** Open until a moderator acts: dismissed, content removed, or its author suspended. */
export const REPORT_STATUSES = ['open', 'dismissed', 'removed', 'suspended'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/**
 * A member's report of a post, comment, direct message or member. One per reporter and item
 * (a unique index). `targetUser` is whom it is about: the content's author, or the member.
 */
export const Report = defineEntity({
  name: 'Report',
  tableName: 'reports',
  uniques: [{ name: 'reports_reporter_target_unique', properties: ['reporter', 'targetType', 'targetId'] }],
  indexes: [
    {
      name: 'reports_open_index',
      expression:
        'create index "reports_open_index" on "reports" ("created_at", "id") where "status" = \'open\'',
    },
    { name: 'reports_target_index', properties: ['targetType', 'targetId'] },
    { name: 'reports_target_user_index', properties: ['targetUser'] },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    reporter: () => p.manyToOne(User).deleteRule('cascade'),
    targetType: p.enum([...REPORT_TARGET_TYPES]).columnType('varchar(16)'),
    targetId: p.uuid(),
    targetUser: () => p.manyToOne(User).deleteRule('cascade'),
    reason: p.text(),
    status: p
      .enum([...REPORT_STATUSES])
      .columnType('varchar(16)')
      .default('open'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    resolvedAt: p.datetime().nullable(),
    resolvedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
  },
});
export type IReport = InferEntity<typeof Report>;
