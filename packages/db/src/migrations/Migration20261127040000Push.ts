import { Migration } from '@mikro-orm/migrations';

/**
 * Web push. `push_subscriptions`: one row per browser (its endpoint is unique: the same browser
 * subscribing again, under another member after a new login, moves the row). `push_preferences`:
 * the kinds a member turned off (no row: all on). `push_deliveries`: the notifications and
 * messages whose push was queued, so each is pushed once whichever instance or job run saw it.
 */
export class Migration20261127040000Push extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "push_subscriptions" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "endpoint" text not null constraint "push_subscriptions_endpoint_unique" unique,
      "p256dh" varchar(100) not null,
      "auth" varchar(50) not null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(
      `create index "push_subscriptions_user_index" on "push_subscriptions" ("user_id", "created_at");`,
    );
    this.addSql(`create table "push_preferences" (
      "user_id" uuid not null primary key references "users" ("id") on update cascade on delete cascade,
      "likes" boolean not null default true,
      "comments" boolean not null default true,
      "follows" boolean not null default true,
      "mentions" boolean not null default true,
      "messages" boolean not null default true
    );`);
    this.addSql(`create table "push_deliveries" (
      "source_id" uuid not null primary key,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "push_deliveries_created_index" on "push_deliveries" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "push_deliveries";`);
    this.addSql(`drop table if exists "push_preferences";`);
    this.addSql(`drop table if exists "push_subscriptions";`);
  }
}
