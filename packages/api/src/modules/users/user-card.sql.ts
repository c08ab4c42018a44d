/** The columns of a public user card (user-card.schema.ts), from the users row aliased `alias`. */
import { raw, type Sql, sql } from '../../sql.js';

export function userCardColumns(alias: string): Sql {
  const u = (column: string) => raw(`${alias}.${column}`);
  return sql`${u('id')}, ${u('username')}, ${u('display_name')}, ${u('avatar_url')}, ${u('bio')},
  (select count(*) from follows f where f.followee_id = ${u('id')})::int as followers_count`;
}
