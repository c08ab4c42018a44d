import { Migration } from '@mikro-orm/migrations';

/**
 * Chats a member manages: a deleted chat is kept (`deleted_at`) until it is purged, so Undo can
 * bring it back; an edited question keeps its earlier versions (`version_of` names the first
 * version, `hidden` marks the versions and answers not shown), and an answer names the question
 * it answers (`reply_to`). Titles and finished messages are searchable (GIN expression indexes in
 * the `cubes_search` configuration; an answer still streaming is indexed once it ends).
 */
export class Migration20261127060000CubeyChats extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "chat_sessions" add column "deleted_at" timestamptz null;`);
    this.addSql(`alter table "chat_messages" add column "version_of" uuid null, add column "reply_to" uuid null,
      add column "hidden" boolean not null default false;`);
    this.addSql(
      `create index "chat_sessions_title_search_index" on "chat_sessions" using gin (to_tsvector('cubes_search'::regconfig, "title"));`,
    );
    this.addSql(
      `create index "chat_messages_content_search_index" on "chat_messages" using gin (to_tsvector('cubes_search'::regconfig, "content")) where "status" <> 'streaming';`,
    );
    this.addSql(
      `create index "chat_messages_version_of_index" on "chat_messages" ("version_of") where "version_of" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "chat_messages_version_of_index";`);
    this.addSql(`drop index if exists "chat_messages_content_search_index";`);
    this.addSql(`drop index if exists "chat_sessions_title_search_index";`);
    this.addSql(
      `alter table "chat_messages" drop column if exists "hidden", drop column if exists "reply_to", drop column if exists "version_of";`,
    );
    this.addSql(`alter table "chat_sessions" drop column if exists "deleted_at";`);
  }
}
