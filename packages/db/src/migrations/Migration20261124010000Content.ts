import { Migration } from '@mikro-orm/migrations';

/**
 * Your content: edited posts keep their previous versions (post_revisions), a post says when it
 * was last edited, and a comment's notification points at the comment so it goes with it.
 */
export class Migration20261124010000Content extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "posts" add column "edited_at" timestamptz null;`);
    this.addSql(`create table "post_revisions" (
      "id" uuid not null primary key,
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "content" text not null,
      "written_at" timestamptz not null,
      "replaced_at" timestamptz not null
    );`);
    // A post's history, newest version first.
    this.addSql(
      `create index "post_revisions_post_replaced_at_index" on "post_revisions" ("post_id", "replaced_at" desc, "id" desc);`,
    );
    this.addSql(
      `alter table "notifications" add column "comment_id" uuid null references "comments" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create index "notifications_comment_id_index" on "notifications" ("comment_id") where "comment_id" is not null;`,
    );
    // The sweep of uploads nothing uses any more looks posts up by their image.
    this.addSql(
      `create index "posts_image_url_index" on "posts" ("image_url") where "image_url" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "posts_image_url_index";`);
    this.addSql(`alter table "notifications" drop column if exists "comment_id";`);
    this.addSql(`drop table if exists "post_revisions" cascade;`);
    this.addSql(`alter table "posts" drop column if exists "edited_at";`);
  }
}
