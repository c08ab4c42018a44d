import { Migration } from '@mikro-orm/migrations';

/**
 * Avatars, banners and post images are our own uploads (`/objects/…`), never URLs of another
 * site: a viewer's browser would fetch those, telling that site who looks at what, and the CSP's
 * img-src no longer allows them. Members could set an http(s) avatar or banner before; those
 * are cleared (the profile shows the generated avatar and the default banner instead), and a
 * check keeps any other value out, whichever path writes it. Posts took uploads only from the
 * start; their check holds that too.
 */
export const LOCAL_IMAGE_SQL = [
  `update "users" set "avatar_url" = null where "avatar_url" is not null and "avatar_url" not like '/objects/%';`,
  `update "users" set "header_url" = null where "header_url" is not null and "header_url" not like '/objects/%';`,
  `update "posts" set "image_url" = null where "image_url" is not null and "image_url" not like '/objects/%';`,
  `alter table "users" add constraint "users_avatar_url_check" check ("avatar_url" like '/objects/%');`,
  `alter table "users" add constraint "users_header_url_check" check ("header_url" like '/objects/%');`,
  `alter table "posts" add constraint "posts_image_url_check" check ("image_url" like '/objects/%');`,
];

export class Migration20261126040000LocalProfileImages extends Migration {
  override async up(): Promise<void> {
    for (const sql of LOCAL_IMAGE_SQL) this.addSql(sql);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "users" drop constraint "users_avatar_url_check";');
    this.addSql('alter table "users" drop constraint "users_header_url_check";');
    this.addSql('alter table "posts" drop constraint "posts_image_url_check";');
  }
}
