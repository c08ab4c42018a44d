import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

export type AccountExportStatus = 'queued' | 'running' | 'done' | 'failed';

/**
 * A "Download my data" archive: built in the background (status and progress 0–100 as it goes),
 * then kept in object storage under `objectKey` for its owner to download.
 */
export const AccountExport = defineEntity({
  name: 'AccountExport',
  tableName: 'account_exports',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    status: p.string().length(16).$type<AccountExportStatus>().default('queued'),
    progress: p.integer().default(0),
    objectKey: p.string().length(400).nullable(),
    size: p.bigint('number').nullable(),
    error: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
    finishedAt: p.datetime().nullable(),
  },
});
export type IAccountExport = InferEntity<typeof AccountExport>;
