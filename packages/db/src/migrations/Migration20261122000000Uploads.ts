import { Migration } from '@mikro-orm/migrations';

/** Uploaded objects: who uploaded which key, and whether set-acl made it public. */
export class Migration20261122000000Uploads extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "uploaded_objects" (
      "key" varchar(400) not null primary key,
      "owner_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "content_type" varchar(100) null,
      "size" int null,
      "visibility" varchar(16) not null default 'private',
      "width" int null,
      "height" int null,
      "thumb_key" varchar(400) null,
      "created_at" timestamptz not null default now(),
      constraint "uploaded_objects_visibility_check" check ("visibility" in ('private', 'public')),
      constraint "uploaded_objects_size_check" check ("size" is null or "size" >= 0)
    );`);
    this.addSql(`create index "uploaded_objects_owner_id_index" on "uploaded_objects" ("owner_id");`);
    // The orphan sweep: private uploads by age.
    this.addSql(
      `create index "uploaded_objects_private_created_at_index" on "uploaded_objects" ("created_at") where "visibility" = 'private';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "uploaded_objects" cascade;`);
  }
}
