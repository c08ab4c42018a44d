/** Tags: the tag page's input and answers, trending, and Search's tags. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { pageInput } from '../../paging.js';
import { text } from '../../text.js';
import { isTag, TAG_MAX_LENGTH } from '../../text-links.js';
import { SEARCH_QUERY_MAX } from '../search/search.schema.js';

export { TAG_MAX_LENGTH } from '../../text-links.js';

export const INVALID_TAG = ERROR_REASONS.TAG_INVALID;

/**
 * A tag as written (before folding): at most TAG_MAX_LENGTH letters, marks, digits and `_`, one
 * of them a letter or `_` (text-links.ts, isTag), with or without `#`. Stated as patterns so the
 * OpenAPI document gives the rule; isTag still judges the folded tag.
 */
const TAG_AS_WRITTEN = new RegExp(`^#?[\\p{L}\\p{M}\\p{N}_]{1,${TAG_MAX_LENGTH}}$`, 'u');
const TAG_HAS_LETTER = /[\p{L}_]/u;

/** A tag as a path gives it, with or without `#`; folded by the service. */
export const tagSchema = text('Tag', { error: ERROR_REASONS.TAG_REQUIRED })
  .trim()
  .min(1, ERROR_REASONS.TAG_REQUIRED)
  .regex(TAG_AS_WRITTEN, INVALID_TAG)
  .regex(TAG_HAS_LETTER, INVALID_TAG)
  .transform((value) => value.replace(/^#/, ''))
  .pipe(
    z
      .string()
      .min(1, ERROR_REASONS.TAG_REQUIRED)
      .max(TAG_MAX_LENGTH, ERROR_REASONS.TAG_TOO_LONG)
      .refine(isTag, INVALID_TAG),
  );

export const tagInput = z.object({ tag: tagSchema });
export type TagInput = z.infer<typeof tagInput>;

export const tagPostsInput = pageInput.extend({ tag: tagSchema });
export type TagPostsInput = z.infer<typeof tagPostsInput>;

export const tagCountsSchema = z.strictObject({
  postsCount: z.int().nonnegative(),
  peopleCount: z.int().nonnegative(),
});
export type TagCounts = z.infer<typeof tagCountsSchema>;

/** A tag's page header: the tag folded, and its counts of posts and of people. */
export const tagSummarySchema = z.strictObject({ tag: z.string(), ...tagCountsSchema.shape });
export type TagSummary = z.infer<typeof tagSummarySchema>;

export const trendingTagSchema = tagSummarySchema;
export type TrendingTag = z.infer<typeof trendingTagSchema>;

/** Trending tags, most people first (at most TRENDING_MAX). */
export const trendingResult = z.array(trendingTagSchema);

export const TRENDING_MAX = 10;
/**
 * The tags kept for everyone, from which each member's list is taken once what their blocks and
 * mutes hide is subtracted (tag.service.ts). A tag below these could pass one of them only for a
 * member who hid most of its people; it is then missing from that member's list.
 */
export const TRENDING_CANDIDATES = 30;
export { TRENDING_WINDOW_LABEL, TRENDING_WINDOW_MS } from '../../rules.js';

export const tagLiveInput = z.object({
  tag: tagSchema,
  lastEventId: text('Event id').max(200, ERROR_REASONS.EVENT_ID_INVALID).nullish(),
});

/**
 * Search's tags: `q` is what the search box holds (at most as long as it lets through); the
 * start of a tag, with or without `#`, finds the tags it starts; anything else finds none.
 */
export const tagSearchInput = z.object({
  q: text('Query').max(SEARCH_QUERY_MAX, ERROR_REASONS.QUERY_TOO_LONG),
});
export type TagSearchInput = z.infer<typeof tagSearchInput>;

/** The tags found, most people first (at most TAG_SEARCH_MAX). */
export const tagSearchResult = z.array(tagSummarySchema);

export const TAG_SEARCH_MAX = 5;
/** How many distinct tags of a prefix are counted to rank them (the first in code-point order). */
export const TAG_SEARCH_CANDIDATES = 20;
