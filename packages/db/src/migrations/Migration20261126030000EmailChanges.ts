import { Migration } from '@mikro-orm/migrations';

/**
 * A member's pending e-mail change: the new address waits here until the member enters the code
 * mailed to it (settings.confirmEmailChange). Until then users.email keeps the old address, so
 * nobody can take an address they cannot read. One pending change per member (a new request
 * replaces it); the code is stored only as its SHA-256, valid 15 minutes, 5 wrong tries.
 * new_email is not unique: two members may both ask for an address; only the one who reads its
 * mailbox can confirm, and users_email_lower_unique decides then.
 */
export class Migration20261126030000EmailChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "email_changes" (
      "id" uuid not null primary key,
      "user_id" uuid not null constraint "email_changes_user_id_unique" unique
        references "users" ("id") on update cascade on delete cascade,
      "new_email" varchar(254) not null,
      "code_hash" varchar(64) not null,
      "expires_at" timestamptz not null,
      "attempts" int not null default 0,
      "created_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "email_changes";`);
  }
}
