import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { REPORT_TARGET_TYPES, Report } from './report.entity.js';
import { User } from './user.entity.js';

export const MODERATION_ACTIONS = ['dismiss', 'remove', 'suspend', 'unsuspend'] as const;
export type ModerationActionType = (typeof MODERATION_ACTIONS)[number];

/**
 * The moderators' audit log: who did what to which item, and when. Usernames are copied in, so
 * the log still reads right after an account is gone; rows are only ever added.
 */
export const ModerationAction = defineEntity({
  name: 'ModerationAction',
  tableName: 'moderation_actions',
  indexes: [
    {
      name: 'moderation_actions_created_at_index',
      expression:
        'create index "moderation_actions_created_at_index" on "moderation_actions" ("created_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    moderator: () => p.manyToOne(User).nullable().deleteRule('set null'),
    moderatorUsername: p.string().length(30),
    action: p.enum([...MODERATION_ACTIONS]).columnType('varchar(16)'),
    report: () => p.manyToOne(Report).nullable().deleteRule('set null'),
    targetType: p.enum([...REPORT_TARGET_TYPES]).columnType('varchar(16)'),
    targetId: p.uuid(),
    targetUser: () => p.manyToOne(User).nullable().deleteRule('set null'),
    targetUsername: p.string().length(30),
    note: p.text().default(''),
    suspendedUntil: p.datetime().nullable(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IModerationAction = InferEntity<typeof ModerationAction>;
