import { Migration } from '@mikro-orm/migrations';

/**
 * The live posts, newest first, each index entry carrying its author: (created_at, id) include
 * (author_id), of the posts no moderator removed. The Following feed of a member who follows many
 * walks everyone's newest posts and keeps their followees' (about members / followees entries per
 * post shown). Over the full (created_at, id) index each entry cost a heap read to learn its
 * author and whether it was removed: 1,000 rows and 2.5 ms for page 2 of a member following 200
 * of 10,000. Over this one the walk is index-only where the visibility map allows (0.9 ms).
 * Figures: bench/README.md, "The Following feed".
 */
export class Migration20261128030000LivePostsByTime extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      // `if not exists`: on a big table an operator builds it beforehand without locking writes
      // (docs/operations.md, "The live posts' index by time").
      `create index if not exists "posts_live_created_at_id_author_index" on "posts" ("created_at" desc, "id" desc) include ("author_id")
         where "removed_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index "posts_live_created_at_id_author_index";');
  }
}
