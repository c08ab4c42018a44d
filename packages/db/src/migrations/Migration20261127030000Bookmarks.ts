import { Migration } from '@mikro-orm/migrations';

/** Bookmarks: posts a member keeps to read later, private to them. */
export class Migration20261127030000Bookmarks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "bookmarks" (
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      constraint "bookmarks_pkey" primary key ("user_id", "post_id")
    );`);
    // The Bookmarks list, newest first, paged by (created_at, post_id).
    this.addSql(
      `create index "bookmarks_user_created_at_index" on "bookmarks" ("user_id", "created_at" desc, "post_id" desc);`,
    );
    // A deleted post takes its bookmarks along (the foreign key's cascade looks them up by post).
    this.addSql(`create index "bookmarks_post_id_index" on "bookmarks" ("post_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "bookmarks" cascade;`);
  }
}
