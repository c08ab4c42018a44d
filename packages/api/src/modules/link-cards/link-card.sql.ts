/**
 * The `link_card` column of a post read: the card of the post's link as JSON
 * `{url, title, description, siteName, imageUrl}`, or null (no link, the card removed, the page
 * not fetched yet or with nothing to show). The image is our own upload, named only while its
 * object is there and public.
 */
import { raw, type Sql, sql } from '../../sql.js';

/** `link_card` of the post whose id is the column `postId` (e.g. 'p.id'). */
export function linkCardColumn(postId: string): Sql {
  return sql`(select json_build_object('url', pl.url, 'title', lp.title, 'description', lp.description,
          'siteName', lp.site_name,
          'imageUrl', (select '/objects/' || o.key from uploaded_objects o
                        where o.key = lp.image_key and o.visibility = 'public'))
      from post_links pl join link_previews lp on lp.url = pl.url
     where pl.post_id = ${raw(postId)} and lp.title is not null) as link_card`;
}

/** The same card for a post_links row `pl` joined with its preview `lp` (the create path). */
export const LINK_CARD_OF_ROW = sql`json_build_object('url', pl.url, 'title', lp.title, 'description', lp.description,
          'siteName', lp.site_name,
          'imageUrl', (select '/objects/' || o.key from uploaded_objects o
                        where o.key = lp.image_key and o.visibility = 'public'))`;
