import { Migration } from '@mikro-orm/migrations';

/** Blocks and mutes between members. */
export class Migration20261124020000Safety extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "blocks" (
      "blocker_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "blocked_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      constraint "blocks_pkey" primary key ("blocker_id", "blocked_id"),
      constraint "blocks_not_self_check" check ("blocker_id" <> "blocked_id")
    );`);
    // "Who blocked me": the other half of every either-way check.
    this.addSql(`create index "blocks_blocked_index" on "blocks" ("blocked_id", "blocker_id");`);
    this.addSql(`create table "mutes" (
      "muter_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "muted_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      constraint "mutes_pkey" primary key ("muter_id", "muted_id"),
      constraint "mutes_not_self_check" check ("muter_id" <> "muted_id")
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "mutes" cascade;`);
    this.addSql(`drop table if exists "blocks" cascade;`);
  }
}
