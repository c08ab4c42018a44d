import { Migration } from '@mikro-orm/migrations';

/**
 * Room on each page of the tables whose counts change all day: a like or comment rewrites its
 * post's row (likes_count, comments_count), a favourite its medium's. With full pages the new
 * version of the row went to another page, and every index of the table, the two GIN indexes of
 * posts among them, took an entry for it: 18 % of post updates were HOT in bench:mixed. With 15 %
 * of each page left free the new version stays on its page and no index is touched (99 % HOT):
 * a like or unlike alone went from 2.3 to 1.9 ms of CPU (bench/README.md).
 *
 * Pages written from now on keep the room. An existing database's pages get it as they are
 * rewritten; `VACUUM FULL posts` (or pg_repack, without the lock) gives it at once
 * (docs/operations.md).
 */
export class Migration20261128020000CountersFillfactor extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "posts" set (fillfactor = 85);`);
    this.addSql(`alter table "ai_media" set (fillfactor = 85);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ai_media" reset (fillfactor);`);
    this.addSql(`alter table "posts" reset (fillfactor);`);
  }
}
