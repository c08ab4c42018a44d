/** Post forms and feed paging: one definition for the procedure, the REST body and the web form. */
import { z } from 'zod';
import { pageInput } from '../../paging.js';
import { objectPathField } from '../objects/objects.schema.js';

export const POST_MAX_LENGTH = 2000;

export const postContentSchema = z
  .string({ error: 'Post cannot be empty' })
  .trim()
  .min(1, 'Post cannot be empty')
  .max(POST_MAX_LENGTH, 'Post must be at most 2000 characters');

/** An image is an object path of our own storage (`/objects/...`), never an outside URL. */
export const postImageUrlSchema = objectPathField('Invalid image URL');

export const createPostInput = z.object({
  content: postContentSchema,
  imageUrl: postImageUrlSchema.nullish(),
});
export type CreatePostInput = z.infer<typeof createPostInput>;

export const feedInput = pageInput.prefault({});
export type FeedInput = z.infer<typeof feedInput>;

/** Path ids are checked by the service (an id that is not a uuid is 404, not 400). */
export const entityIdSchema = z.string({ error: 'Id is required' }).min(1, 'Id is required').max(100);

export const postIdInput = z.object({ postId: entityIdSchema });
export type PostIdInput = z.infer<typeof postIdInput>;
