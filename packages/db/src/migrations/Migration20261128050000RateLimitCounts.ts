import { Migration } from '@mikro-orm/migrations';

/**
 * The rate limits' counts, one row per bucket and key, shared by every instance (docs/security.md,
 * "Rate limits"): a fixed window of `points` hits that ends at `expire` (milliseconds since the
 * epoch). The columns are those rate-limiter-flexible's PostgreSQL store reads and writes; the
 * key is `text`, not its varchar(255), since a key can hold an e-mail address and an IP.
 * UNLOGGED: a hit writes no WAL, and a crash that empties the table only forgives the counts of
 * the current windows. A standby has no copy (nothing reads it there).
 */
export class Migration20261128050000RateLimitCounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create unlogged table "rate_limit_counts" ("key" text primary key, "points" integer not null default 0, "expire" bigint);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table "rate_limit_counts";');
  }
}
