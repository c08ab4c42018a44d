import { Migration } from '@mikro-orm/migrations';

/**
 * Search and the gallery. Full-text search runs on generated tsvector columns (GIN) in a text
 * search configuration that stems English and ignores accents; pg_trgm indexes names and titles
 * for fuzzy matches, and a vocabulary of every word written (kept by triggers, trigram-indexed)
 * lets a misspelled term be corrected before the full-text match. AI media and favourites are
 * the gallery; favorites_count changes in the same transaction as the favourite row.
 */
export class Migration20261123010000SearchGallery extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists unaccent;');
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql('create extension if not exists fuzzystrmatch;');

    // unaccent() is only STABLE (it looks its dictionary up by name); indexes and generated
    // columns need an IMMUTABLE function, so the dictionary is named explicitly.
    this.addSql(`create function "cubes_unaccent"(text) returns text
      language sql immutable parallel safe strict
      as $$ select public.unaccent('public.unaccent'::regdictionary, $1) $$;`);

    // English stemming after unaccent: "café" and "cafe" are one lexeme, "running" is "run".
    this.addSql('create text search configuration "cubes_search" (copy = english);');
    this.addSql(`alter text search configuration "cubes_search"
      alter mapping for hword, hword_part, word with unaccent, english_stem;`);

    this.addSql(`alter table "posts" add column "search_vector" tsvector
      generated always as (to_tsvector('cubes_search'::regconfig, "content")) stored;`);
    this.addSql(`create index "posts_search_vector_index" on "posts" using gin ("search_vector");`);

    this.addSql(`alter table "users" add column "search_vector" tsvector
      generated always as (
        setweight(to_tsvector('cubes_search'::regconfig, "username"), 'A') ||
        setweight(to_tsvector('cubes_search'::regconfig, "display_name"), 'A') ||
        setweight(to_tsvector('cubes_search'::regconfig, coalesce("bio", '')), 'C')
      ) stored;`);
    this.addSql(`create index "users_search_vector_index" on "users" using gin ("search_vector");`);
    this.addSql(
      `create index "users_username_trgm_index" on "users" using gin (lower("username") gin_trgm_ops);`,
    );
    this.addSql(
      `create index "users_display_name_trgm_index" on "users" using gin (lower(cubes_unaccent("display_name")) gin_trgm_ops);`,
    );

    this.addSql(`create table "ai_media" (
      "id" uuid not null primary key,
      "type" varchar(8) not null,
      "title" varchar(200) not null,
      "image_url" text not null,
      "width" int not null,
      "height" int not null,
      "creator_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "favorites_count" int not null default 0,
      "created_at" timestamptz not null default now(),
      "search_vector" tsvector generated always as (to_tsvector('cubes_search'::regconfig, "title")) stored,
      constraint "ai_media_type_check" check ("type" in ('art', 'music', 'fun', 'video')),
      constraint "ai_media_size_check" check ("width" > 0 and "height" > 0),
      constraint "ai_media_favorites_count_check" check ("favorites_count" >= 0)
    );`);
    // The gallery's keyset, for all types and for one type.
    this.addSql(`create index "ai_media_created_at_id_index" on "ai_media" ("created_at" desc, "id" desc);`);
    this.addSql(
      `create index "ai_media_type_created_at_id_index" on "ai_media" ("type", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "ai_media_popular_index" on "ai_media" ("favorites_count" desc, "created_at" desc);`,
    );
    this.addSql(`create index "ai_media_creator_id_index" on "ai_media" ("creator_id");`);
    this.addSql(`create index "ai_media_search_vector_index" on "ai_media" using gin ("search_vector");`);
    this.addSql(
      `create index "ai_media_title_trgm_index" on "ai_media" using gin (lower(cubes_unaccent("title")) gin_trgm_ops);`,
    );

    // The gallery's counts per type, kept by a trigger in the writing transaction, so the stats
    // tiles cost four rows however large the gallery grows.
    this.addSql(`create table "ai_media_stats" (
      "type" varchar(8) not null primary key,
      "count" bigint not null default 0
    );`);
    this.addSql(`insert into "ai_media_stats" ("type") values ('art'), ('music'), ('fun'), ('video');`);
    this.addSql(`create function "ai_media_stats_count"() returns trigger
      language plpgsql
      as $$
      begin
        if TG_OP in ('INSERT', 'UPDATE') then
          update ai_media_stats set count = count + 1 where type = new.type;
        end if;
        if TG_OP in ('DELETE', 'UPDATE') then
          update ai_media_stats set count = count - 1 where type = old.type;
        end if;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "ai_media_stats_count" after insert or delete or update of "type" on "ai_media"
      for each row execute function ai_media_stats_count();`);

    // The primary key (user_id, media_id) is the one-favourite-per-user rule.
    this.addSql(`create table "favorites" (
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "media_id" uuid not null references "ai_media" ("id") on update cascade on delete cascade,
      "created_at" timestamptz not null default now(),
      constraint "favorites_pkey" primary key ("user_id", "media_id")
    );`);
    this.addSql(`create index "favorites_media_id_index" on "favorites" ("media_id");`);
    // A profile's Favorites tab, newest first.
    this.addSql(
      `create index "favorites_user_created_at_index" on "favorites" ("user_id", "created_at" desc);`,
    );

    // The vocabulary: lower-case, unaccented words of 3 to 40 letters (no digits: numbers are not
    // misspelled) from everything searchable.
    // Insert-only ("do nothing" on a known word), so concurrent writers never wait on a hot word.
    this.addSql(`create table "search_words" ("word" text collate "C" not null primary key);`);
    this.addSql(
      `create index "search_words_trgm_index" on "search_words" using gist ("word" gist_trgm_ops);`,
    );
    this.addSql(`create function "search_words_add"(body text) returns void
      language sql volatile
      as $$
        insert into search_words (word)
        select distinct w
          from regexp_split_to_table(lower(cubes_unaccent(coalesce(body, ''))), '[^[:alnum:]]+') as w
         where char_length(w) between 3 and 40 and w !~ '[0-9]'
        on conflict do nothing
      $$;`);
    this.addSql(`create function "search_words_from_row"() returns trigger
      language plpgsql
      as $$
      begin
        if TG_TABLE_NAME = 'posts' then
          perform search_words_add(new.content);
        elsif TG_TABLE_NAME = 'users' then
          perform search_words_add(new.username || ' ' || new.display_name);
        elsif TG_TABLE_NAME = 'ai_media' then
          perform search_words_add(new.title);
        end if;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "posts_search_words" after insert or update of "content" on "posts"
      for each row execute function search_words_from_row();`);
    this.addSql(`create trigger "users_search_words" after insert or update of "username", "display_name" on "users"
      for each row execute function search_words_from_row();`);
    this.addSql(`create trigger "ai_media_search_words" after insert or update of "title" on "ai_media"
      for each row execute function search_words_from_row();`);
    // Words already written before this migration.
    this.addSql(`select search_words_add(content) from posts;`);
    this.addSql(`select search_words_add(username || ' ' || display_name) from users;`);
  }
}
