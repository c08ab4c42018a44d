import { Migration } from '@mikro-orm/migrations';

/**
 * An author's live posts get an index of their own: (author, created_at, id) of the posts no
 * moderator removed. Every read of an author's posts leaves out removed ones (a profile's pages,
 * the Following feed's per-author walk), and a member's post count (their profile, Cubey's
 * answers about them) counts live posts only. The full (author, created_at, id) index could not
 * tell a removed post, so the count read one heap page per post, growing with the author's posts
 * (figures: bench/history.md). Over the partial index it is an index-only scan of a page or two,
 * and a page is an ordered walk of either index, as before.
 *
 * The full index stays for what reads an author's posts including removed ones (the data export,
 * an account's deletion, the foreign key's cascade). A plain (author) index would do for those,
 * but then the planner took it for a profile's first page too (a bitmap of all the author's
 * posts and a sort, estimated from the average author), which a prolific author would pay for.
 */
export class Migration20261125010000LivePostsByAuthor extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "posts_live_author_created_at_id_index" on "posts" ("author_id", "created_at" desc, "id" desc)
         where "removed_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index "posts_live_author_created_at_id_index";');
  }
}
