import { Migration } from '@mikro-orm/migrations';

/**
 * Fresh planner statistics for the columns added by the content, moderation and heartbeat
 * migrations. A column added to a table that already holds rows has no statistics until
 * autovacuum next analyzes the table, which for a big, mostly-read table can be days; until then
 * PostgreSQL guesses that `removed_at is null` keeps 0.5 % of the posts and walks them with a
 * sequential scan and a sort instead of the created_at index (bench/history.md has the search
 * this slowed). ANALYZE samples a fixed number of rows, so it takes about the
 * same time at any size; it runs inside the migration's transaction.
 */
export class Migration20261125000000Statistics extends Migration {
  override async up(): Promise<void> {
    this.addSql('analyze "posts", "comments", "direct_messages", "users", "notifications", "chat_messages";');
  }

  override async down(): Promise<void> {
    // Statistics have nothing to undo.
  }
}
