import { Migration } from '@mikro-orm/migrations';

/**
 * The member's language (the i18n issue): English, German or Arabic, chosen in Settings or taken
 * from the visitor's language at registration. It picks the web app's language on every device
 * and the language of the mails the account gets. Every existing account speaks English, the
 * language it has used so far.
 */
export class Migration20261129050000Language extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "language" text not null default 'en',
      add constraint "users_language_check" check ("language" in ('en', 'de', 'ar'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop constraint if exists "users_language_check";`);
    this.addSql(`alter table "users" drop column if exists "language";`);
  }
}
