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
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    reporter: () => p.manyToOne(User).deleteRule('cascade'),
    targetType: p.string().length(16).$type<ReportTargetType>(),
    targetId: p.uuid(),
    targetUser: () => p.manyToOne(User).deleteRule('cascade'),
    reason: p.text(),
    status: p.string().length(16).$type<ReportStatus>().default('open'),
    createdAt: p.datetime().onCreate(() => new Date()),
    resolvedAt: p.datetime().nullable(),
    resolvedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
  },
});
export type IReport = InferEntity<typeof Report>;
