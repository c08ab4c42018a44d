import { Migration } from '@mikro-orm/migrations';

/** Direct messages, and each member's choice of who may message them. */
export class Migration20261123020000Messages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "messages_from" varchar(16) not null default 'everyone',
      add constraint "users_messages_from_check" check ("messages_from" in ('everyone', 'following', 'nobody'));`);

    this.addSql(`create table "direct_messages" (
      "id" uuid not null primary key,
      "sender_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "receiver_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "content" text not null,
      "client_id" varchar(64) null,
      "created_at" timestamptz not null default now(),
      "read_at" timestamptz null,
      constraint "direct_messages_not_self_check" check ("sender_id" <> "receiver_id")
    );`);
    // One direction of a thread, newest first: a thread page is two index ranges merged, the
    // conversations list takes the newest row of each, and "whom I wrote to" is its prefix.
    this.addSql(
      `create index "direct_messages_pair_index" on "direct_messages" ("sender_id", "receiver_id", "created_at" desc, "id" desc);`,
    );
    // Everything a member sent, in order: the live catch-up of their other tabs.
    this.addSql(
      `create index "direct_messages_sender_index" on "direct_messages" ("sender_id", "created_at", "id");`,
    );
    // Everything a member received, in order: the live catch-up and "who wrote to me".
    this.addSql(
      `create index "direct_messages_receiver_index" on "direct_messages" ("receiver_id", "created_at", "id");`,
    );
    // Unread counts, per conversation and in total.
    this.addSql(
      `create index "direct_messages_unread_index" on "direct_messages" ("receiver_id", "sender_id") where "read_at" is null;`,
    );
    // Read receipts for a sender's messages, in the order they were read (live catch-up).
    this.addSql(
      `create index "direct_messages_read_index" on "direct_messages" ("sender_id", "read_at") where "read_at" is not null;`,
    );
    // A retried send (same clientId) is stored once.
    this.addSql(
      `create unique index "direct_messages_client_id_unique" on "direct_messages" ("sender_id", "client_id") where "client_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "direct_messages" cascade;`);
    this.addSql(`alter table "users" drop constraint if exists "users_messages_from_check";`);
    this.addSql(`alter table "users" drop column if exists "messages_from";`);
  }
}
