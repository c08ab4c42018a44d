import { Migration } from '@mikro-orm/migrations';

/**
 * Reposts (a member passes a post on to their followers, once per post), each post's count of
 * them, pinned posts (up to 3 on their author's profile), and the 'repost' notification (one per
 * member and post, as a like's).
 */
export class Migration20261129000000Reposts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "reposts" (
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      constraint "reposts_pkey" primary key ("user_id", "post_id")
    );`);
    this.addSql(`create index "reposts_post_user_index" on "reposts" ("post_id", "user_id");`);
    this.addSql(
      `create index "reposts_user_created_at_index" on "reposts" ("user_id", "created_at" desc, "post_id" desc);`,
    );
    this.addSql(
      `create index "reposts_created_at_index" on "reposts" ("created_at" desc, "post_id" desc) include ("user_id");`,
    );
    this.addSql(`alter table "posts" add column "reposts_count" int not null default 0,
      add column "pinned_at" timestamptz null,
      add constraint "posts_reposts_count_check" check ("reposts_count" >= 0);`);
    this.addSql(
      `create index "posts_pinned_index" on "posts" ("author_id", "pinned_at" desc) where "pinned_at" is not null;`,
    );
    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal', 'mention', 'repost'));`);
    this.addSql(
      `create unique index "notifications_repost_unique" on "notifications" ("actor_id", "post_id") where "type" = 'repost';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "notifications" where "type" = 'repost';`);
    this.addSql(`drop index if exists "notifications_repost_unique";`);
    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal', 'mention'));`);
    this.addSql(`drop index if exists "posts_pinned_index";`);
    this.addSql(`alter table "posts" drop constraint "posts_reposts_count_check",
      drop column "pinned_at", drop column "reposts_count";`);
    this.addSql(`drop table if exists "reposts" cascade;`);
  }
}
