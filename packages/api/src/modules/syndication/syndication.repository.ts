/**
 * Every statement behind /sitemap.xml: what a visitor can open, as (kind, key, lastmod) rows in
 * one order: public profiles (by username), tags that have a shown post (by tag), then the newest
 * shown posts. "Shown" is the one rule every read states: not removed, its author neither
 * suspended nor deleted. Blocks and mutes are a member's own and never apply to a visitor.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, rows, sql, textArray } from '../../sql.js';
import { shownMember } from '../moderation/suspension.sql.js';
import type { SitemapKind, SitemapRow } from './syndication.schema.js';

/** Profiles, tags and the newest `postsMax` posts, as one list in the sitemap's order. */
function entries(postsMax: number) {
  return sql`
    select 'profile' as kind, 0 as rank, u.username as key,
           greatest(u.created_at, (select max(p.created_at) from posts p
                                    where p.author_id = u.id and p.removed_at is null)) as lastmod,
           null::timestamptz as at
      from users u
     where u.deleted_at is null and ${shownMember('u')}
    union all
    select 'tag', 1, t.tag, max(t.created_at), null
      from post_tags t
      join posts p on p.id = t.post_id and p.removed_at is null
      join users u on u.id = p.author_id and u.deleted_at is null and ${shownMember('u')}
     group by t.tag
    union all
    select * from (
      select 'post', 2, p.id::text, coalesce(p.edited_at, p.created_at), p.created_at
        from posts p
        join users u on u.id = p.author_id and u.deleted_at is null and ${shownMember('u')}
       where p.removed_at is null
       order by p.created_at desc, p.id desc
       limit ${postsMax}
    ) newest`;
}

/** How many rows the sitemap has. */
export async function countSitemapRows(em: EntityManager, postsMax: number): Promise<number> {
  const row = await firstRow<{ count: number }>(
    em,
    sql`select count(*)::int as count from (${entries(postsMax)}) e`,
  );
  return row?.count ?? 0;
}

/** `limit` rows of the sitemap from `offset`: profiles and tags by name, then posts newest first. */
export async function listSitemapRows(
  em: EntityManager,
  postsMax: number,
  offset: number,
  limit: number,
): Promise<SitemapRow[]> {
  const found = await rows<{ kind: SitemapKind; key: string; lastmod: Date | string }>(
    em,
    sql`select kind, key, lastmod from (${entries(postsMax)}) e
         order by rank, at desc nulls last, key collate "C"
         offset ${offset} limit ${limit}`,
  );
  return found.map((r) => ({ kind: r.kind, key: r.key, lastmod: new Date(r.lastmod) }));
}

/** The stored type and size of each of `keys` (object keys, `uploads/<uuid>`) that is public. */
export async function findPublicObjects(
  em: EntityManager,
  keys: readonly string[],
): Promise<Map<string, { contentType: string | null; size: number | null }>> {
  if (keys.length === 0) return new Map();
  const found = await rows<{ key: string; content_type: string | null; size: number | null }>(
    em,
    sql`select key, content_type, size from uploaded_objects
         where key = any(${textArray(keys)}) and visibility = 'public'`,
  );
  return new Map(found.map((r) => [r.key, { contentType: r.content_type, size: r.size }]));
}
