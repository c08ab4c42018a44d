import { Migration } from '@mikro-orm/migrations';

/**
 * Polls: a post may carry one (2 to 4 options, open until `expires_at`), members vote once
 * (`poll_votes`, one row per member and poll), and its end is announced once to its voters and
 * its author (the notification kind 'poll_ended', which the author receives from themself).
 */
export class Migration20261129020000Polls extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "polls" (
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "options" jsonb not null,
      "votes_counts" jsonb not null,
      "voters_count" int not null default 0,
      "multiple" boolean not null default false,
      "expires_at" timestamptz not null,
      "ended_notified_at" timestamptz null,
      constraint "polls_pkey" primary key ("post_id"),
      constraint "polls_options_check" check (jsonb_typeof(options) = 'array'::text),
      constraint "polls_voters_count_check" check (voters_count >= 0)
    );`);
    this.addSql(
      `create index "polls_unnotified_expires_at_index" on "polls" ("expires_at") where "ended_notified_at" is null;`,
    );
    this.addSql(`create table "poll_votes" (
      "post_id" uuid not null references "polls" ("post_id") on update cascade on delete cascade,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "choices" jsonb not null,
      "created_at" timestamptz not null default now(),
      constraint "poll_votes_pkey" primary key ("post_id", "user_id")
    );`);
    this.addSql(`create index "poll_votes_user_id_index" on "poll_votes" ("user_id");`);

    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal', 'mention', 'repost', 'quote', 'poll_ended'));`);
    // The author hears of their own poll's end: the one kind whose actor may be its recipient.
    this.addSql(`alter table "notifications" drop constraint "notifications_not_self_check",
      add constraint "notifications_not_self_check" check (recipient_id <> actor_id or type = 'poll_ended');`);
    this.addSql(
      `create unique index "notifications_poll_ended_unique" on "notifications" ("recipient_id", "post_id") where "type" = 'poll_ended';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "notifications" where "type" = 'poll_ended';`);
    this.addSql(`drop index if exists "notifications_poll_ended_unique";`);
    this.addSql(`alter table "notifications" drop constraint "notifications_not_self_check",
      add constraint "notifications_not_self_check" check (recipient_id <> actor_id);`);
    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal', 'mention', 'repost', 'quote'));`);
    this.addSql(`drop table if exists "poll_votes";`);
    this.addSql(`drop table if exists "polls";`);
  }
}
