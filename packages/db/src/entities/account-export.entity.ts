import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

export const ACCOUNT_EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type AccountExportStatus = (typeof ACCOUNT_EXPORT_STATUSES)[number];

/**
 * A "Download my data" archive: built in the background (status and progress 0–100 as it goes),
 * then kept in object storage under `objectKey` for its owner to download.
 */
export const AccountExport = defineEntity({
  name: 'AccountExport',
  tableName: 'account_exports',
  indexes: [
    {
      name: 'account_exports_user_created_at_index',
      expression:
        'create index "account_exports_user_created_at_index" on "account_exports" ("user_id", "created_at" desc)',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [{ name: 'account_exports_progress_check', expression: 'progress >= 0 and progress <= 100' }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    status: p
      .enum([...ACCOUNT_EXPORT_STATUSES])
      .columnType('varchar(16)')
      .default('queued'),
    progress: p.integer().default(0),
    objectKey: p.string().length(400).nullable(),
    size: p.bigint('number').nullable(),
    error: p.text().nullable(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    finishedAt: p.datetime().nullable(),
  },
});
export type IAccountExport = InferEntity<typeof AccountExport>;
