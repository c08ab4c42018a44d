import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #49, content warnings and sensitive media: a post may carry a warning (`content_warning`,
 * at most 200 characters; the card then folds its text and images behind it), each of its images
 * a `sensitive` flag (in the `images` jsonb beside `alt`; an image without the key is not
 * sensitive, so the rows written before need no rewrite), and a member may choose to always
 * see what warnings fold and sensitive images blur.
 */
export class Migration20261129030000ContentWarnings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "posts" add column "content_warning" text null,
      add constraint "posts_content_warning_check" check (char_length(content_warning) <= 200);`);
    this.addSql(`alter table "users" add column "always_show_content_warnings" boolean not null default false,
      add column "always_show_sensitive_media" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "users" drop column "always_show_content_warnings", drop column "always_show_sensitive_media";',
    );
    this.addSql(
      'alter table "posts" drop constraint "posts_content_warning_check", drop column "content_warning";',
    );
  }
}
