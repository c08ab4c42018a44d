/** Post forms and feed paging: one definition for the procedure, the REST body and the web form. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { pageInput, pageOf } from '../../paging.js';
import { CONTENT_WARNING_MAX, IMAGE_ALT_MAX_LENGTH, POST_IMAGES_MAX, POST_MAX_LENGTH } from '../../rules.js';
import { text } from '../../text.js';
import { linkCardSchema } from '../link-cards/link-card.schema.js';
import { mentionSchema } from '../mentions/mention.schema.js';
import { objectPathField } from '../objects/objects.schema.js';
import { pollInput, pollSchema } from '../polls/poll.schema.js';
import { authorFieldsShape } from '../users/author.schema.js';

export {
  CONTENT_WARNING_MAX,
  IMAGE_ALT_MAX_LENGTH,
  POST_EDIT_WINDOW_MS,
  POST_IMAGES_MAX,
  POST_MAX_LENGTH,
} from '../../rules.js';

export const postContentSchema = text('Post', { error: ERROR_REASONS.POST_EMPTY })
  .trim()
  .min(1, ERROR_REASONS.POST_EMPTY)
  .max(POST_MAX_LENGTH, ERROR_REASONS.POST_TOO_LONG);

/** An image is an object path of our own storage (`/objects/...`), never an outside URL. */
export const postImageUrlSchema = objectPathField(ERROR_REASONS.IMAGE_URL_INVALID, 'Image URL');

/** An image's description (alt text): optional, trimmed; an empty one is no description. */
export const imageAltSchema = text('Image description')
  .trim()
  .max(IMAGE_ALT_MAX_LENGTH, ERROR_REASONS.IMAGE_DESCRIPTION_TOO_LONG);

/** Whether an image shows blurred until the viewer asks. */
export const imageSensitiveSchema = z.boolean({ error: ERROR_REASONS.SENSITIVE_NOT_BOOLEAN });

/**
 * A post's content warning: optional, trimmed, at most CONTENT_WARNING_MAX characters; an empty
 * one (or only spaces) is no warning (null). Control characters are refused as in the text.
 */
export const contentWarningSchema = text('Content warning', { error: ERROR_REASONS.CONTENT_WARNING_NOT_TEXT })
  .trim()
  .max(CONTENT_WARNING_MAX, ERROR_REASONS.CONTENT_WARNING_TOO_LONG)
  .nullable()
  .transform((v) => (v ? v : null));

/**
 * One image of a new post: the path of one's own finished upload, its description, and whether it
 * is sensitive (blurred until the viewer asks).
 */
export const postImageInput = z.object({
  objectPath: objectPathField(ERROR_REASONS.IMAGE_PATH_INVALID, 'Image path'),
  alt: imageAltSchema.nullish(),
  sensitive: imageSensitiveSchema.optional(),
});
export type PostImageInput = z.infer<typeof postImageInput>;

/** Path ids are checked by the service (an id that is not a uuid is 404, not 400). */
export const entityIdSchema = text('Id', { error: ERROR_REASONS.ID_REQUIRED })
  .min(1, ERROR_REASONS.ID_REQUIRED)
  .max(100, ERROR_REASONS.ID_TOO_LONG);

/**
 * A new post: its text and up to four images (`images`), or the older single `imageUrl` (one
 * image without a description). Not both, and no image twice.
 */
export const createPostInput = z
  .object({
    content: postContentSchema,
    /** a warning the card shows instead of the text and images until the viewer asks */
    contentWarning: contentWarningSchema.optional(),
    imageUrl: postImageUrlSchema.nullish(),
    images: z
      .array(postImageInput, { error: ERROR_REASONS.IMAGES_NOT_LIST })
      .min(1, ERROR_REASONS.IMAGES_EMPTY)
      .max(POST_IMAGES_MAX, ERROR_REASONS.TOO_MANY_IMAGES)
      .refine((images) => new Set(images.map((i) => i.objectPath)).size === images.length, {
        message: ERROR_REASONS.IMAGE_TWICE,
      })
      .optional(),
    /** the post this one quotes: one the author may see (400 otherwise) */
    quotePostId: entityIdSchema.nullish(),
    /** false: no link card for this post (the author removed the preview before posting) */
    linkCard: z.boolean({ error: ERROR_REASONS.LINK_CARD_NOT_BOOLEAN }).optional(),
    /** a poll: 2 to 4 options, open 5 minutes to 7 days (polls/poll.schema.ts) */
    poll: pollInput.optional(),
  })
  .refine((post) => !(post.imageUrl && post.images), {
    message: ERROR_REASONS.IMAGES_AND_IMAGE_URL,
    path: ['images'],
  })
  // The refinement as JSON Schema, for the OpenAPI document (last: meta belongs to one instance).
  .meta({ not: { required: ['imageUrl', 'images'], properties: { imageUrl: { type: 'string' } } } });
export type CreatePostInput = z.infer<typeof createPostInput>;

/** Everyone: every post (the default); following: posts by people the viewer follows, and their own. */
export const FEED_SCOPES = ['everyone', 'following'] as const;
export type FeedScope = (typeof FEED_SCOPES)[number];
export const feedScopeSchema = z.enum(FEED_SCOPES, { error: ERROR_REASONS.FEED_SCOPE_INVALID });

export const feedInput = pageInput.extend({ scope: feedScopeSchema.default('everyone') }).prefault({});
export type FeedInput = z.infer<typeof feedInput>;

export const postIdInput = z.object({ postId: entityIdSchema });
export type PostIdInput = z.infer<typeof postIdInput>;

/**
 * An edit of one's own post: its text, and, when given, the description of each of its images in
 * their order (an empty one removes it). Leaving `alts` out keeps the descriptions as they are;
 * so it is with `sensitive` (one flag per image, in order) and `contentWarning` (null or empty
 * removes the warning).
 */
export const editPostInput = z.object({
  postId: entityIdSchema,
  content: postContentSchema,
  alts: z
    .array(imageAltSchema.nullable(), { error: ERROR_REASONS.DESCRIPTIONS_NOT_LIST })
    .max(POST_IMAGES_MAX, ERROR_REASONS.TOO_MANY_IMAGES)
    .optional(),
  sensitive: z
    .array(imageSensitiveSchema, { error: ERROR_REASONS.SENSITIVE_NOT_LIST })
    .max(POST_IMAGES_MAX, ERROR_REASONS.TOO_MANY_IMAGES)
    .optional(),
  contentWarning: contentWarningSchema.optional(),
});
export type EditPostInput = z.infer<typeof editPostInput>;

// Responses, as the JSON on the wire (times are ISO strings). Each procedure declares its own with
// `.output(output(schema))` (output.ts): the service returns this type, the REST contract
// (GET /api/openapi.json) documents it, and an answer that does not match it never leaves.

/**
 * An image of a post: full size and thumbnail URLs, the size it was stored at (null when
 * unknown: the card then keeps a 16:10 box) and its description (null when none).
 */
export const postImageSchema = z.strictObject({
  url: z.string(),
  thumbUrl: z.string(),
  width: z.int().positive().nullable(),
  height: z.int().positive().nullable(),
  alt: z.string().nullable(),
  /** shown blurred, with a "Sensitive content" label, until the viewer asks (or always shows sensitive media) */
  sensitive: z.boolean(),
});
export type PostImage = z.infer<typeof postImageSchema>;

/** A quote card's text is cut at this many characters (an ellipsis ends a cut one). */
export const QUOTE_TEXT_MAX = 300;

/**
 * The post a post quotes, as its card shows it: author, text cut at QUOTE_TEXT_MAX characters,
 * its first image's thumbnail (null when none), and when it was written; its own quote is never
 * embedded (one level). Its content warning and whether that image is sensitive come along, so
 * the quote card folds and blurs as the quoted post's own card does.
 */
export const quotedPostSchema = z.strictObject({
  id: z.uuid(),
  ...authorFieldsShape,
  content: z.string(),
  /** the quoted post's content warning, or null */
  contentWarning: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** whether that image is marked sensitive (false when there is none) */
  imageSensitive: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type QuotedPost = z.infer<typeof quotedPostSchema>;

/** The member whose repost brought a post into a list. */
export const repostedBySchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
});
export type RepostedBy = z.infer<typeof repostedBySchema>;

/** A post as every response carries it; `isLiked` and `isBookmarked` are false for visitors. */
export const postSchema = z.strictObject({
  id: z.uuid(),
  ...authorFieldsShape,
  content: z.string(),
  /**
   * a warning its author put on it (at most 200 characters), or null: the card shows the warning
   * alone until the viewer presses Show (or always shows content behind warnings)
   */
  contentWarning: z.string().nullable(),
  /** the first image's URL, or null: `images[0].url` */
  imageUrl: z.string().nullable(),
  /** up to four, in the author's order */
  images: z.array(postImageSchema).max(POST_IMAGES_MAX),
  likesCount: z.int().nonnegative(),
  commentsCount: z.int().nonnegative(),
  repostsCount: z.int().nonnegative(),
  isLiked: z.boolean(),
  /** whether the viewer reposted it (false for visitors) */
  isReposted: z.boolean(),
  /**
   * on an item of the Following feed or a profile's Posts tab that is there because someone
   * reposted it: who (the newest of them the viewer follows); null otherwise
   */
  repostedBy: repostedBySchema.nullable(),
  /** its author pinned it to their profile, where it leads the Posts tab */
  pinned: z.boolean(),
  /** the id of the post it quotes; null when it quotes none */
  quotePostId: z.uuid().nullable(),
  /**
   * the post it quotes, as the viewer may see it; null when it quotes none, or when the quoted post
   * is deleted or hidden from the viewer (with `quotePostId` set, the card says "This post is
   * unavailable")
   */
  quote: quotedPostSchema.nullable(),
  /** whether the viewer bookmarked it (only the viewer ever sees their bookmarks) */
  isBookmarked: z.boolean(),
  createdAt: z.iso.datetime(),
  /** when the author last edited it; null if never */
  editedAt: z.iso.datetime().nullable(),
  /** the members its `@username`s name, as links to their profiles */
  mentions: z.array(mentionSchema),
  /** its `#tags`, folded (lower case), each a /tags/{tag} page */
  tags: z.array(z.string()),
  /** the preview of its first http(s) link, once fetched; null when none (link-cards/) */
  linkCard: linkCardSchema.nullable(),
  /** its poll as the viewer sees it (counts only once they may: polls/poll.schema.ts), or null */
  poll: pollSchema.nullable(),
});

/** A post as the viewer sees it. */
export type PostDto = z.infer<typeof postSchema>;

export const postResult = z.strictObject({ post: postSchema });
export type PostResult = z.infer<typeof postResult>;

/** A page of posts, newest first (the feed, a profile's posts); nextCursor is null on the last page. */
export const postPage = pageOf(postSchema);
export type PostPage = z.infer<typeof postPage>;

export const likeResult = z.strictObject({ liked: z.boolean(), likesCount: z.int().nonnegative() });

/** Whether the post is pinned to its author's profile, after a pin or an unpin. */
export const pinResult = z.strictObject({ pinned: z.boolean() });
export type PinResult = z.infer<typeof pinResult>;
export type LikeResult = z.infer<typeof likeResult>;

/** A version an edit replaced: its text, when it was written and when the edit replaced it. */
export const postRevisionSchema = z.strictObject({
  id: z.uuid(),
  content: z.string(),
  writtenAt: z.iso.datetime(),
  replacedAt: z.iso.datetime(),
});

export type PostRevision = z.infer<typeof postRevisionSchema>;

/** A post's previous versions, newest first (the current text is the post's own). */
export const postRevisionsResult = z.strictObject({ revisions: z.array(postRevisionSchema) });

/** A live change to a post other viewers have open (posts.onChange). */
export const postChangeSchema = z.strictObject({
  postId: z.uuid(),
  kind: z.enum(['deleted', 'edited', 'comments', 'linkCard', 'poll']),
});
export type LivePostChange = z.infer<typeof postChangeSchema>;
