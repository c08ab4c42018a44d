/** The statements of link cards: a post's link, the previews kept per URL, and the card's removal. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, rows, sql } from '../../sql.js';
import { shownMember } from '../moderation/suspension.sql.js';
import type { LinkCard } from './link-card.schema.js';
import { LINK_CARD_OF_ROW } from './link-card.sql.js';

/**
 * Gives post `postId` its link `url`, and answers the card when a preview of it was fetched since
 * `freshSince` (null: none fresh, or with nothing to show; `fresh` says whether a fetch is due).
 */
export async function insertPostLink(
  em: EntityManager,
  postId: string,
  url: string,
  freshSince: Date,
): Promise<{ fresh: boolean; card: LinkCard | null }> {
  const row = await firstRow<{ fresh: boolean; card: LinkCard | null }>(
    em,
    sql`with pl as (insert into post_links (post_id, url) values (${postId}, ${url}) returning post_id, url)
        select (lp.url is not null) as fresh, case when lp.title is null then null else ${LINK_CARD_OF_ROW} end as card
          from pl left join link_previews lp on lp.url = pl.url and lp.fetched_at >= ${freshSince}`,
  );
  return row ?? { fresh: false, card: null };
}

/** Drops post `postId`'s link and so its card (an edit that changed its first link). */
export async function deletePostLink(em: EntityManager, postId: string): Promise<void> {
  await rows(em, sql`delete from post_links where post_id = ${postId}`);
}

/** A post with a link, as its card's job needs it: its author, whether it is out of sight, its link. */
export interface PostLinkRow {
  post_id: string;
  author_id: string;
  url: string;
  /** removed by a moderator, or its author suspended: nobody hears of its card */
  hidden: boolean;
}

export function findPostLink(em: EntityManager, postId: string): Promise<PostLinkRow | undefined> {
  return firstRow<PostLinkRow>(
    em,
    sql`select pl.post_id, p.author_id, pl.url, (p.removed_at is not null or not (${shownMember('u')})) as hidden
          from post_links pl join posts p on p.id = pl.post_id join users u on u.id = p.author_id
         where pl.post_id = ${postId}`,
  );
}

export interface PreviewRow {
  url: string;
  fetched_at: Date;
  title: string | null;
  description: string | null;
  site_name: string | null;
  image_key: string | null;
}

/** The preview kept for `url` if fetched since `freshSince`. */
export function findFreshPreview(
  em: EntityManager,
  url: string,
  freshSince: Date,
): Promise<PreviewRow | undefined> {
  return firstRow<PreviewRow>(
    em,
    sql`select url, fetched_at, title, description, site_name, image_key from link_previews
         where url = ${url} and fetched_at >= ${freshSince}`,
  );
}

/** Waits for, then holds until `em`'s transaction ends, the lock of `url`'s fetch. */
export async function lockLinkUrl(em: EntityManager, url: string): Promise<void> {
  await rows(em, sql`select pg_advisory_xact_lock(hashtextextended(${`link-preview:${url}`}, 0))`);
}

/** Keeps `preview` for its URL, replacing an older one. */
export async function savePreview(em: EntityManager, preview: PreviewRow): Promise<void> {
  await rows(
    em,
    sql`insert into link_previews (url, fetched_at, title, description, site_name, image_key)
        values (${preview.url}, ${preview.fetched_at}, ${preview.title}, ${preview.description},
                ${preview.site_name}, ${preview.image_key})
        on conflict (url) do update set fetched_at = excluded.fetched_at, title = excluded.title,
          description = excluded.description, site_name = excluded.site_name, image_key = excluded.image_key`,
  );
}

/**
 * Takes the card off `authorId`'s own post `postId` (shown: not removed). Null when there is no
 * such post of theirs; otherwise whether a card was there to remove.
 */
export async function deleteOwnPostLink(
  em: EntityManager,
  postId: string,
  authorId: string,
): Promise<{ removed: boolean } | null> {
  const row = await firstRow<{ own: boolean; removed: boolean }>(
    em,
    sql`with own as (select id from posts where id = ${postId} and author_id = ${authorId} and removed_at is null),
             gone as (delete from post_links where post_id in (select id from own) returning post_id)
        select exists (select 1 from own) as own, exists (select 1 from gone) as removed`,
  );
  return row?.own ? { removed: row.removed } : null;
}
