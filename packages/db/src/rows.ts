/**
 * The columns of a table as raw SQL returns them, derived from its entity, so a repository's row
 * type is never written a third time (migrations, entity, row): `Row<IPost>` has `author_id`,
 * `likes_count`, `created_at`. The schema-agreement test (schema.test.ts) keeps the entities equal
 * to what the migrations build, so a row type derived here is the table's.
 *
 * A many-to-one becomes its foreign key (`author` → `author_id: string`). A query that selects a
 * timestamp through sql.ts's `iso` gets text: `AsText<Row<IPost>, 'created_at'>`.
 */

/** `likesCount` → `likes_count` */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/**
 * The plain type of a value: MikroORM brands some property types (`Opt<number>` for a column
 * with a default, `Hidden<string>`), which a row read by raw SQL does not have.
 */
type Plain<V> = V extends string
  ? string extends V
    ? string
    : V
  : V extends number
    ? number extends V
      ? number
      : V
    : V extends boolean
      ? boolean
      : V;

/** The primary key of a referenced entity (anything with an `id`), or the value itself. */
type ColumnValue<V> = V extends Date
  ? Date
  : V extends null
    ? null
    : V extends { id: infer Id }
      ? Plain<Id>
      : Plain<V>;

type IsReference<V> =
  NonNullable<V> extends Date ? false : NonNullable<V> extends { id: unknown } ? true : false;

type ColumnName<K extends string, V> = IsReference<V> extends true ? `${SnakeCase<K>}_id` : SnakeCase<K>;

/**
 * A table's row as raw SQL returns it, from its entity type (`InferEntity<typeof Post>`): every
 * column present, a nullable one as `T | null`.
 */
export type Row<E> = {
  [K in keyof E & string as E[K] extends (...args: never[]) => unknown
    ? never
    : ColumnName<K, E[K]>]-?: ColumnValue<Exclude<E[K], undefined>>;
};

/** `R` with the timestamp columns `K` selected as ISO text (sql.ts's `iso`). */
export type AsText<R, K extends keyof R> = Omit<R, K> & {
  [P in K]: null extends R[P] ? string | null : string;
};
