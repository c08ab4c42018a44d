import { Migration } from '@mikro-orm/migrations';

/**
 * Quote posts: a post may embed another (`quote_of`, the quoted post's id). No foreign key: a
 * quoted post that is deleted leaves the id behind, and the quoting post then shows "This post is
 * unavailable" (as it does for a viewer the quoted post is hidden from). The quoted author gets a
 * 'quote' notification (about the quoting post).
 */
export class Migration20261129003000Quotes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "posts" add column "quote_of" uuid null;`);
    this.addSql(`create index "posts_quote_of_index" on "posts" ("quote_of") where "quote_of" is not null;`);
    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal', 'mention', 'repost', 'quote'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "notifications" where "type" = 'quote';`);
    this.addSql(`alter table "notifications" drop constraint "notifications_type_check",
      add constraint "notifications_type_check" check ("type" in ('like', 'comment', 'follow', 'removal', 'mention', 'repost'));`);
    this.addSql(`drop index if exists "posts_quote_of_index";`);
    this.addSql(`alter table "posts" drop column "quote_of";`);
  }
}
