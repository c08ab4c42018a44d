import { Migration } from '@mikro-orm/migrations';

/**
 * Cubey answers get a heartbeat: `updated_at` is touched while an answer streams, so any instance
 * can find (through the partial index) answers left streaming by an instance that died.
 */
export class Migration20261124050000CubeyHeartbeat extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "chat_messages" add column "updated_at" timestamptz not null default now();`);
    this.addSql(
      `create index "chat_messages_streaming_updated_at_index" on "chat_messages" ("updated_at") where "status" = 'streaming';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "chat_messages_streaming_updated_at_index";`);
    this.addSql(`alter table "chat_messages" drop column if exists "updated_at";`);
  }
}
