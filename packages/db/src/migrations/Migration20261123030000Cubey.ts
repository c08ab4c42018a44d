import { Migration } from '@mikro-orm/migrations';

/** Cubey, the AI assistant: chat sessions and their messages. */
export class Migration20261123030000Cubey extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "chat_sessions" (
      "id" uuid not null primary key,
      "owner_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "title" varchar(120) not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    // A user's sessions, most recently active first.
    this.addSql(
      `create index "chat_sessions_owner_updated_at_index" on "chat_sessions" ("owner_id", "updated_at" desc, "id" desc);`,
    );
    this.addSql(`create table "chat_messages" (
      "id" uuid not null primary key,
      "session_id" uuid not null references "chat_sessions" ("id") on update cascade on delete cascade,
      "role" varchar(16) not null,
      "content" text not null,
      "status" varchar(16) not null default 'done',
      "error" text null,
      "created_at" timestamptz not null default now(),
      constraint "chat_messages_role_check" check ("role" in ('user', 'assistant')),
      constraint "chat_messages_status_check" check ("status" in ('streaming', 'done', 'stopped', 'failed'))
    );`);
    // A session's messages, oldest first.
    this.addSql(
      `create index "chat_messages_session_created_at_index" on "chat_messages" ("session_id", "created_at", "id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "chat_messages" cascade;`);
    this.addSql(`drop table if exists "chat_sessions" cascade;`);
  }
}
