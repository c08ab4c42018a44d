import { Migration } from '@mikro-orm/migrations';

/** Accounts and sessions: users, sessions, password resets. */
export class Migration20261121000000Accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "users" (
      "id" uuid not null primary key,
      "username" varchar(30) not null,
      "display_name" varchar(50) not null,
      "email" varchar(254) not null,
      "password_hash" varchar(255) not null,
      "bio" text null,
      "avatar_url" text null,
      "header_url" text null,
      "email_visible" boolean not null default false,
      "created_at" timestamptz not null default now()
    );`);
    // Case-insensitive uniqueness; lookups use lower(...) so these indexes serve them too.
    this.addSql(`create unique index "users_username_lower_unique" on "users" (lower("username"));`);
    this.addSql(`create unique index "users_email_lower_unique" on "users" (lower("email"));`);

    this.addSql(`create table "sessions" (
      "id" uuid not null primary key,
      "token_hash" varchar(64) not null constraint "sessions_token_hash_unique" unique,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      "expires_at" timestamptz not null,
      "last_seen_at" timestamptz not null default now(),
      "user_agent" varchar(512) null
    );`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`create index "sessions_expires_at_index" on "sessions" ("expires_at");`);

    this.addSql(`create table "password_resets" (
      "id" uuid not null primary key,
      "user_id" uuid not null constraint "password_resets_user_id_unique" unique
        references "users" ("id") on update cascade on delete cascade,
      "code_hash" varchar(64) not null,
      "expires_at" timestamptz not null,
      "attempts" int not null default 0,
      "created_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "password_resets";`);
    this.addSql(`drop table if exists "sessions";`);
    this.addSql(`drop table if exists "users";`);
  }
}
