import { Migration } from '@mikro-orm/migrations';

/**
 * Mentions and tags. `post_mentions` and `comment_mentions` hold the members a post or comment
 * mentions (what answers link, and what an edit compares against); `post_tags` the folded tags a
 * post carries, with its author and time copied so the tag page and trending read one index.
 * Notifications get the kind 'mention', once per (author, member, post) and per (member, comment).
 */
export class Migration20261127010000MentionsTags extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "post_tags" (
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "tag" varchar(64) not null,
      "author_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null,
      constraint "post_tags_pkey" primary key ("post_id", "tag")
    );`);
    this.addSql(
      `create index "post_tags_tag_created_at_index" on "post_tags" ("tag", "created_at" desc, "post_id" desc) include ("author_id");`,
    );
    this.addSql(
      `create index "post_tags_created_at_index" on "post_tags" ("created_at") include ("tag", "author_id", "post_id");`,
    );
    this.addSql(`create index "post_tags_author_id_index" on "post_tags" ("author_id");`);
    // Removed posts are few: tag counts and trending take them out through this index rather
    // than looking each tagged post up.
    this.addSql(
      `create index "posts_removed_created_at_index" on "posts" ("created_at") where "removed_at" is not null;`,
    );

    this.addSql(`create table "post_mentions" (
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      constraint "post_mentions_pkey" primary key ("post_id", "user_id")
    );`);
    this.addSql(`create index "post_mentions_user_id_index" on "post_mentions" ("user_id");`);
    this.addSql(`create table "comment_mentions" (
      "comment_id" uuid not null references "comments" ("id") on update cascade on delete cascade,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      constraint "comment_mentions_pkey" primary key ("comment_id", "user_id")
    );`);
    this.addSql(`create index "comment_mentions_user_id_index" on "comment_mentions" ("user_id");`);

    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal', 'mention'));`);
    this.addSql(
      `create unique index "notifications_post_mention_unique" on "notifications" ("actor_id", "recipient_id", "post_id") where "type" = 'mention' and "comment_id" is null;`,
    );
    this.addSql(
      `create unique index "notifications_comment_mention_unique" on "notifications" ("recipient_id", "comment_id") where "type" = 'mention' and "comment_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "notifications" where "type" = 'mention';`);
    this.addSql(`drop index if exists "notifications_comment_mention_unique";`);
    this.addSql(`drop index if exists "notifications_post_mention_unique";`);
    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal'));`);
    this.addSql(`drop table if exists "comment_mentions";`);
    this.addSql(`drop table if exists "post_mentions";`);
    this.addSql(`drop table if exists "post_tags";`);
    this.addSql(`drop index if exists "posts_removed_created_at_index";`);
  }
}
