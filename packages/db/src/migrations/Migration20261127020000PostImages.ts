import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #29: a post holds up to four images, each with a description. They live in a jsonb
 * array on the post (`[{url, width, height, alt}]`, in order), so every read of a post gets them
 * with the row, without a join or a second query. `image_url` stays as the first image's path
 * for what reads one image (moderation, search results). Posts with one image get it as their
 * array, sized from the upload's row. The partial GIN index answers the upload sweep's question
 * "does any post show this object?".
 */
export class Migration20261127020000PostImages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "posts" add column "images" jsonb not null default '[]';`);
    this.addSql(
      `alter table "posts" add constraint "posts_images_check" check (jsonb_typeof("images") = 'array');`,
    );
    this.addSql(
      `update "posts" p set "images" = jsonb_build_array(jsonb_build_object(
         'url', p."image_url", 'width', o."width", 'height', o."height", 'alt', null))
         from "posts" q left join "uploaded_objects" o on '/objects/' || o."key" = q."image_url"
        where q."id" = p."id" and p."image_url" is not null;`,
    );
    this.addSql(
      `create index "posts_images_index" on "posts" using gin ("images" jsonb_path_ops) where "images" <> '[]'::jsonb;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index "posts_images_index";');
    this.addSql('alter table "posts" drop constraint "posts_images_check";');
    this.addSql('alter table "posts" drop column "images";');
  }
}
