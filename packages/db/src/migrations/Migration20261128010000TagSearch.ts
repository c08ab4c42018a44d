import { Migration } from '@mikro-orm/migrations';

/**
 * Search finds tags by the start of their name: an index on `post_tags.tag` in code-point order
 * ("C"), whatever the database's collation, so a prefix is one index range and the distinct tags
 * in it are walked one index probe each (tag.repository.ts, findTagsStartingWith); and the few
 * suspended members as a set, read from a partial index instead of every member's row.
 */
export class Migration20261128010000TagSearch extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "post_tags_tag_prefix_index" on "post_tags" ("tag" collate "C");`);
    this.addSql(`create index "users_suspended_index" on "users" ("id") where "suspended_at" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "users_suspended_index";`);
    this.addSql(`drop index if exists "post_tags_tag_prefix_index";`);
  }
}
