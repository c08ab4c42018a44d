import { Migration } from '@mikro-orm/migrations';

/** The social core: posts, likes, comments, follows, notifications. */
export class Migration20261121010000Social extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "posts" (
      "id" uuid not null primary key,
      "author_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "content" text not null,
      "image_url" text null,
      "likes_count" int not null default 0,
      "comments_count" int not null default 0,
      "created_at" timestamptz not null default now(),
      constraint "posts_likes_count_check" check ("likes_count" >= 0),
      constraint "posts_comments_count_check" check ("comments_count" >= 0)
    );`);
    // The feed's keyset: (created_at, id) descending, newest first.
    this.addSql(`create index "posts_created_at_id_index" on "posts" ("created_at" desc, "id" desc);`);
    // A profile's posts, same keyset; also counts a user's posts.
    this.addSql(
      `create index "posts_author_created_at_id_index" on "posts" ("author_id", "created_at" desc, "id" desc);`,
    );

    // The primary key (user_id, post_id) is the one-like-per-user rule and serves "did I like it".
    this.addSql(`create table "likes" (
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      constraint "likes_pkey" primary key ("user_id", "post_id")
    );`);
    this.addSql(`create index "likes_post_id_index" on "likes" ("post_id");`);

    this.addSql(`create table "comments" (
      "id" uuid not null primary key,
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "author_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "content" text not null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(
      `create index "comments_post_id_created_at_index" on "comments" ("post_id", "created_at", "id");`,
    );
    this.addSql(`create index "comments_author_id_index" on "comments" ("author_id");`);

    // The primary key (follower_id, followee_id) is the unique pair and serves "whom I follow".
    this.addSql(`create table "follows" (
      "follower_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "followee_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      constraint "follows_pkey" primary key ("follower_id", "followee_id"),
      constraint "follows_not_self_check" check ("follower_id" <> "followee_id")
    );`);
    this.addSql(`create index "follows_followee_id_index" on "follows" ("followee_id");`);

    this.addSql(`create table "notifications" (
      "id" uuid not null primary key,
      "recipient_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "actor_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "type" varchar(16) not null,
      "post_id" uuid null references "posts" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      "read_at" timestamptz null,
      constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow')),
      constraint "notifications_post_check" check (("type" = 'follow') = ("post_id" is null)),
      constraint "notifications_not_self_check" check ("recipient_id" <> "actor_id")
    );`);
    this.addSql(
      `create index "notifications_recipient_created_at_id_index" on "notifications" ("recipient_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "notifications_recipient_unread_index" on "notifications" ("recipient_id") where "read_at" is null;`,
    );
    // One like notification per (actor, post) and one follow notification per (actor, recipient).
    this.addSql(
      `create unique index "notifications_like_unique" on "notifications" ("actor_id", "post_id") where "type" = 'like';`,
    );
    this.addSql(
      `create unique index "notifications_follow_unique" on "notifications" ("actor_id", "recipient_id") where "type" = 'follow';`,
    );
    // Cascades from posts and users find their notifications through these.
    this.addSql(`create index "notifications_post_id_index" on "notifications" ("post_id");`);
    this.addSql(`create index "notifications_actor_id_index" on "notifications" ("actor_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "notifications";`);
    this.addSql(`drop table if exists "follows";`);
    this.addSql(`drop table if exists "comments";`);
    this.addSql(`drop table if exists "likes";`);
    this.addSql(`drop table if exists "posts";`);
  }
}
