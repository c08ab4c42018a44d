import { Migration } from '@mikro-orm/migrations';

/**
 * A member's Followers and Following lists, most recent first (GET /api/users/{id}/followers and
 * /following): each side gets an index in the list's order, (member, created_at desc, the other
 * member desc), so a page of a member with many followers reads its 20 entries in order instead
 * of sorting them all. The followers index replaces `follows_followee_id_index`, its prefix (the
 * followers count and "who follows X" still use it).
 */
export class Migration20261128163000FollowListsByTime extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "follows_followee_created_at_index" on "follows" ("followee_id", "created_at" desc, "follower_id" desc);`,
    );
    this.addSql(
      `create index if not exists "follows_follower_created_at_index" on "follows" ("follower_id", "created_at" desc, "followee_id" desc);`,
    );
    this.addSql('drop index if exists "follows_followee_id_index";');
  }

  override async down(): Promise<void> {
    this.addSql(`create index "follows_followee_id_index" on "follows" ("followee_id");`);
    this.addSql('drop index "follows_follower_created_at_index";');
    this.addSql('drop index "follows_followee_created_at_index";');
  }
}
