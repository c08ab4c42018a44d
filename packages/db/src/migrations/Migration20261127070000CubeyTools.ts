import { Migration } from '@mikro-orm/migrations';

/**
 * Cubey's tools and fair use: each answer keeps the look-ups it made (`lookups`, what it searched
 * and the posts, members and media it used), so a reload shows the same sources; and each
 * member's tokens per UTC day (`cubey_usage`), read for the daily limit and the metrics.
 */
export class Migration20261127070000CubeyTools extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "chat_messages" add column "lookups" jsonb not null default '[]';`);
    this.addSql(
      `create table "cubey_usage" ("user_id" uuid not null, "day" date not null, "tokens" bigint not null default 0, constraint "cubey_usage_pkey" primary key ("user_id", "day"));`,
    );
    this.addSql(
      `alter table "cubey_usage" add constraint "cubey_usage_user_id_fkey" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "cubey_usage_day_tokens_index" on "cubey_usage" ("day", "tokens" desc);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "cubey_usage" cascade;`);
    this.addSql(`alter table "chat_messages" drop column if exists "lookups";`);
  }
}
