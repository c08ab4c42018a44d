import { Migration } from '@mikro-orm/migrations';

/** Link cards: each page's preview, kept per URL for a day, and the link of each post that shows one. */
export class Migration20261129010000LinkCards extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "link_previews" (
      "url" text not null,
      "fetched_at" timestamptz not null,
      "title" varchar(200) null,
      "description" varchar(500) null,
      "site_name" varchar(100) null,
      "image_key" varchar(400) null,
      constraint "link_previews_pkey" primary key ("url")
    );`);
    this.addSql(`create table "post_links" (
      "post_id" uuid not null references "posts" ("id") on update cascade on delete cascade,
      "url" text not null,
      constraint "post_links_pkey" primary key ("post_id")
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "post_links" cascade;`);
    this.addSql(`drop table if exists "link_previews" cascade;`);
  }
}
