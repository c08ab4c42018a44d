import { Migration } from '@mikro-orm/migrations';

/**
 * Cubey's daily tokens are reserved before each model request (cubey.budget.ts): each streaming
 * answer holds the estimate of its request in flight (`reserved_tokens`), which the provider's
 * count replaces when the request ends. Only streaming answers count, so a stopped, failed or
 * swept answer holds nothing.
 */
export class Migration20261128040000CubeyReservations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "chat_messages" add column "reserved_tokens" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "chat_messages" drop column if exists "reserved_tokens";`);
  }
}
