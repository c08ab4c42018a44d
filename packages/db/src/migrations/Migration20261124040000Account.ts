import { Migration } from '@mikro-orm/migrations';

/**
 * Leaving with your data: data exports built in the background, deleted accounts kept as a
 * nameless tombstone (so direct messages they sent still have a sender), and usernames held for
 * 30 days after a deletion, by hash only.
 */
export class Migration20261124040000Account extends Migration {
  override async up(): Promise<void> {
    // Set when the member deleted their account: the row keeps only its id, "Deleted user" and
    // placeholders, for the messages they sent.
    this.addSql(`alter table "users" add column "deleted_at" timestamptz null;`);

    this.addSql(`create table "account_exports" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "status" varchar(16) not null default 'queued',
      "progress" int not null default 0,
      "object_key" varchar(400) null,
      "size" bigint null,
      "error" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "finished_at" timestamptz null,
      constraint "account_exports_status_check" check ("status" in ('queued', 'running', 'done', 'failed')),
      constraint "account_exports_progress_check" check ("progress" between 0 and 100)
    );`);
    // A member's newest export; also finds the ones to delete with the account.
    this.addSql(
      `create index "account_exports_user_created_at_index" on "account_exports" ("user_id", "created_at" desc);`,
    );

    // SHA-256 of the lower-cased username of a deleted account, until it may be registered again.
    this.addSql(`create table "held_usernames" (
      "username_hash" char(64) not null primary key,
      "free_at" timestamptz not null
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "held_usernames";`);
    this.addSql(`drop table if exists "account_exports";`);
    this.addSql(`alter table "users" drop column if exists "deleted_at";`);
  }
}
