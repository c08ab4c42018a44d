/** Bookmarks: one definition for the procedures, the REST rows and the web. */
import { z } from 'zod';
import { pageInput, pageOf } from '../../paging.js';
import { postSchema } from '../posts/post.schema.js';

/** A member's bookmarks, newest bookmark first, in pages. */
export const bookmarkListInput = pageInput.prefault({});
export type BookmarkListInput = z.infer<typeof bookmarkListInput>;

// Responses, as JSON (see post.schema.ts on response schemas).

/** Whether the caller has the post bookmarked after the request. */
export const bookmarkResult = z.strictObject({ bookmarked: z.boolean() });
export type BookmarkResult = z.infer<typeof bookmarkResult>;

/** A page of the caller's bookmarked posts, in the post shape. */
export const bookmarkPage = pageOf(postSchema);
export type BookmarkPage = z.infer<typeof bookmarkPage>;
