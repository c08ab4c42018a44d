/** Search: the query input shared by the procedure, the REST row and the web page, and the answer. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { text } from '../../text.js';
import { galleryItemSchema } from '../gallery/gallery.schema.js';
import { postSchema } from '../posts/post.schema.js';
import { userCardShape } from '../users/user-card.schema.js';

export const SEARCH_QUERY_MAX = 200;
/** How many of each kind one search returns. */
export const SEARCH_LIMITS = { users: 20, posts: 20, aiMedia: 24 } as const;

export const searchInput = z
  .object({
    q: text('Query').max(SEARCH_QUERY_MAX, ERROR_REASONS.QUERY_TOO_LONG).default(''),
  })
  .prefault({});
export type SearchInput = z.infer<typeof searchInput>;

// Responses, as the JSON on the wire. `highlights` are the words of a result's text that matched
// the query (after stemming, accents and typo correction), for the web to mark.

/** A user as search shows them: the public user card (never the e-mail), and the viewer's follow. */
export const searchUserSchema = z.strictObject({
  ...userCardShape,
  isFollowing: z.boolean(),
  highlights: z.array(z.string()),
});
export type SearchUser = z.infer<typeof searchUserSchema>;

export const searchPostSchema = postSchema.extend({ highlights: z.array(z.string()) });
export type SearchPost = z.infer<typeof searchPostSchema>;
export const searchMediaSchema = galleryItemSchema.extend({ highlights: z.array(z.string()) });
export type SearchMedia = z.infer<typeof searchMediaSchema>;

/** GET /api/search and GET /api/search/suggestions. */
export const searchResult = z.strictObject({
  users: z.array(searchUserSchema),
  posts: z.array(searchPostSchema),
  aiMedia: z.array(searchMediaSchema),
});
export type SearchResult = z.infer<typeof searchResult>;
