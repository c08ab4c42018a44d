import { Migration } from '@mikro-orm/migrations';

/**
 * Reports and moderation: a member's role and suspension, content that moderators removed
 * (hidden, kept), reports of posts, comments, messages and members, the moderators' audit log,
 * and the notification that tells an author why their content was removed.
 */
export class Migration20261124030000Moderation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users"
      add column "role" varchar(16) not null default 'member',
      add column "suspended_at" timestamptz null,
      add column "suspended_until" timestamptz null,
      add constraint "users_role_check" check ("role" in ('member', 'moderator')),
      add constraint "users_suspension_check" check ("suspended_until" is null or "suspended_at" is not null);`);

    // Removed content stays in its table; every read path skips rows with removed_at set.
    this.addSql(`alter table "posts" add column "removed_at" timestamptz null;`);
    this.addSql(`alter table "comments" add column "removed_at" timestamptz null;`);
    this.addSql(`alter table "direct_messages" add column "removed_at" timestamptz null;`);

    this.addSql(`create table "reports" (
      "id" uuid not null primary key,
      "reporter_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "target_type" varchar(16) not null,
      "target_id" uuid not null,
      "target_user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "reason" text not null,
      "status" varchar(16) not null default 'open',
      "created_at" timestamptz not null default now(),
      "resolved_at" timestamptz null,
      "resolved_by_id" uuid null references "users" ("id") on update cascade on delete set null,
      constraint "reports_target_type_check" check ("target_type" in ('post', 'comment', 'message', 'user')),
      constraint "reports_status_check" check ("status" in ('open', 'dismissed', 'removed', 'suspended'))
    );`);
    // One report per reporter and item (409 on a repeat).
    this.addSql(
      `create unique index "reports_reporter_target_unique" on "reports" ("reporter_id", "target_type", "target_id");`,
    );
    // The open queue, oldest first; and every report of one item, closed together.
    this.addSql(
      `create index "reports_open_index" on "reports" ("created_at", "id") where "status" = 'open';`,
    );
    this.addSql(`create index "reports_target_index" on "reports" ("target_type", "target_id");`);
    this.addSql(`create index "reports_target_user_index" on "reports" ("target_user_id");`);

    this.addSql(`create table "moderation_actions" (
      "id" uuid not null primary key,
      "moderator_id" uuid null references "users" ("id") on update cascade on delete set null,
      "moderator_username" varchar(30) not null,
      "action" varchar(16) not null,
      "report_id" uuid null references "reports" ("id") on update cascade on delete set null,
      "target_type" varchar(16) not null,
      "target_id" uuid not null,
      "target_user_id" uuid null references "users" ("id") on update cascade on delete set null,
      "target_username" varchar(30) not null,
      "note" text not null default '',
      "suspended_until" timestamptz null,
      "created_at" timestamptz not null default now(),
      constraint "moderation_actions_action_check" check ("action" in ('dismiss', 'remove', 'suspend', 'unsuspend')),
      constraint "moderation_actions_target_type_check" check ("target_type" in ('post', 'comment', 'message', 'user'))
    );`);
    this.addSql(
      `create index "moderation_actions_created_at_index" on "moderation_actions" ("created_at" desc, "id" desc);`,
    );

    // 'removal': a moderator removed the recipient's content; `note` says what and why.
    this.addSql(`alter table "notifications" add column "note" text null;`);
    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal'));`);
    this.addSql(`alter table "notifications" drop constraint "notifications_post_check",
      add constraint "notifications_post_check" check (
        "type" = 'removal' or (("type" = 'follow') = ("post_id" is null)));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "notifications" where "type" = 'removal';`);
    this.addSql(`alter table "notifications" drop constraint "notifications_post_check",
      add constraint "notifications_post_check" check (("type" = 'follow') = ("post_id" is null));`);
    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow'));`);
    this.addSql(`alter table "notifications" drop column "note";`);
    this.addSql(`drop table if exists "moderation_actions";`);
    this.addSql(`drop table if exists "reports";`);
    this.addSql(`alter table "direct_messages" drop column "removed_at";`);
    this.addSql(`alter table "comments" drop column "removed_at";`);
    this.addSql(`alter table "posts" drop column "removed_at";`);
    this.addSql(`alter table "users" drop constraint "users_suspension_check",
      drop constraint "users_role_check",
      drop column "suspended_until", drop column "suspended_at", drop column "role";`);
  }
}
