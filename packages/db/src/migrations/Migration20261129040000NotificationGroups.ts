import { Migration } from '@mikro-orm/migrations';

/**
 * Grouped notifications (issue #49): likes and reposts of one post, and follows of one member,
 * made on the same UTC calendar day share a `group_key` and are shown as one item
 * (`like:<postId>:<yyyy-mm-dd>`, `repost:<postId>:<yyyy-mm-dd>`, `follow:<yyyy-mm-dd>`; null for
 * every other kind, which stays one item each). The index serves a group's newest rows first:
 * whether a row is its group's newest, the group's first actors and its count.
 */
export class Migration20261129040000NotificationGroups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "notifications" add column "group_key" varchar(80) null;`);
    this.addSql(`update "notifications" set "group_key" = case
        when "type" in ('like', 'repost') then "type" || ':' || "post_id" || ':' || to_char("created_at" at time zone 'UTC', 'YYYY-MM-DD')
        when "type" = 'follow' then 'follow:' || to_char("created_at" at time zone 'UTC', 'YYYY-MM-DD')
      end
      where "type" in ('like', 'repost', 'follow');`);
    this.addSql(
      `create index "notifications_recipient_group_index" on "notifications" ("recipient_id", "group_key", "created_at" desc, "id" desc) where "group_key" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "notifications_recipient_group_index";`);
    this.addSql(`alter table "notifications" drop column if exists "group_key";`);
  }
}
