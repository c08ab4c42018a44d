import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #26: an upload's state, so a signed URL takes one PUT and set-acl cannot race one (see
 * UploadState in uploaded-object.entity.ts). Public rows are done. Private rows of the old flow
 * had their bytes under the served key itself; they stay 'pending' and are never served: the
 * URLs handed out for them name that key, which uploads no longer go to, and the sweep deletes
 * them (bytes under both keys) after a day.
 */
export class Migration20261126010000UploadState extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "uploaded_objects" add column "upload_state" varchar(16) not null default 'pending';`,
    );
    this.addSql(`update "uploaded_objects" set "upload_state" = 'public' where "visibility" = 'public';`);
    this.addSql(
      `alter table "uploaded_objects" add constraint "uploaded_objects_upload_state_check" check ("upload_state" in ('pending', 'receiving', 'uploaded', 'publishing', 'public'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "uploaded_objects" drop constraint "uploaded_objects_upload_state_check";`);
    this.addSql(`alter table "uploaded_objects" drop column "upload_state";`);
  }
}
