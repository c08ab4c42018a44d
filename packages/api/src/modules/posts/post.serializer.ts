/**
 * The public post shape (post.schema.ts's `postSchema`, the `Post` of the OpenAPI document),
 * built field by field from a row of post.repository's select.
 */
import type { AsText, IPost, PostImageData, Row } from '@cubes/db';
import { cutText } from '../../rules.js';
import { tagsOf } from '../../text-links.js';
import type { LinkCard } from '../link-cards/link-card.schema.js';
import type { MentionDto } from '../mentions/mention.schema.js';
import { type PollRow, toPollDto } from '../polls/poll.serializer.js';
import { type AuthorRow, authorFields } from '../users/author.serializer.js';
import { type PostDto, type PostImage, QUOTE_TEXT_MAX, type QuotedPost } from './post.schema.js';

/** A row of post.repository's select: the post, its author, the viewer's like and bookmark; times as ISO text. */
export type PostRow = AuthorRow &
  AsText<
    Pick<
      Row<IPost>,
      | 'id'
      | 'content'
      | 'content_warning'
      | 'image_url'
      | 'images'
      | 'likes_count'
      | 'comments_count'
      | 'reposts_count'
      | 'created_at'
      | 'edited_at'
    >,
    'created_at' | 'edited_at'
  > & {
    /** when its author pinned it (ISO text); null when not pinned */
    pinned_at: string | null;
    /** the id of the post it quotes */
    quote_of: string | null;
    /** the quoted post as the viewer may see it (post.repository's quoteColumn); reads without the column have none */
    quote?: QuoteRow | null;
    is_liked: boolean;
    is_reposted: boolean;
    is_bookmarked: boolean;
    /** the members it mentions (mention.sql.ts); reads without the column answer none */
    mentions?: MentionDto[] | null;
    /** its link card (link-card.sql.ts); reads without the column answer none */
    link_card?: LinkCard | null;
    /** its poll as the viewer sees it (poll.sql.ts); reads without the column answer none */
    poll?: PollRow | null;
  };

/** The quoted post as post.repository's quoteColumn reads it (JSON), its text one past the cut. */
export interface QuoteRow {
  id: string;
  author_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  content: string;
  content_warning: string | null;
  image_url: string | null;
  /** whether the image of image_url is marked sensitive */
  image_sensitive: boolean | null;
  created_at: string;
}

function toQuotedPost(row: QuoteRow): QuotedPost {
  return {
    id: row.id,
    ...authorFields(row),
    content: cutText(row.content, QUOTE_TEXT_MAX),
    contentWarning: row.content_warning ?? null,
    imageUrl: row.image_url ? thumbUrlOf(row.image_url) : null,
    imageSensitive: row.image_url ? row.image_sensitive === true : false,
    createdAt: isoDate(row.created_at),
  };
}

/** A timestamp as the wire carries it: ISO 8601 in UTC, to the millisecond. */
export function isoDate(text: string | number): string {
  return new Date(text).toISOString();
}

/** The thumbnail the objects route serves beside every uploaded image. */
export function thumbUrlOf(url: string): string {
  return `${url}/thumb`;
}

function toPostImage(image: PostImageData): PostImage {
  return {
    url: image.url,
    thumbUrl: thumbUrlOf(image.url),
    width: image.width && image.width > 0 ? image.width : null,
    height: image.height && image.height > 0 ? image.height : null,
    alt: image.alt || null,
    sensitive: image.sensitive === true,
  };
}

/**
 * A post's images in order. A row written with `image_url` alone (by a statement that predates
 * `images`, such as the bench's generators) shows that one image, without size or description.
 */
export function postImagesOf(row: Pick<PostRow, 'image_url' | 'images'>): PostImage[] {
  if (row.images?.length) return row.images.map(toPostImage);
  return row.image_url ? [toPostImage({ url: row.image_url, width: null, height: null, alt: null })] : [];
}

export function toPostDto(row: PostRow): PostDto {
  const images = postImagesOf(row);
  return {
    id: row.id,
    ...authorFields(row),
    content: row.content,
    // `?? null`: selects without the column (search's) answer none.
    contentWarning: row.content_warning ?? null,
    imageUrl: images[0]?.url ?? null,
    images,
    likesCount: row.likes_count,
    commentsCount: row.comments_count,
    repostsCount: row.reposts_count,
    isLiked: row.is_liked,
    isReposted: row.is_reposted,
    // Lists that came by a repost set it (following.repository.ts, profile-posts.repository.ts).
    repostedBy: null,
    pinned: row.pinned_at !== null,
    quotePostId: row.quote_of,
    quote: row.quote ? toQuotedPost(row.quote) : null,
    isBookmarked: row.is_bookmarked,
    createdAt: isoDate(row.created_at),
    // `== null`: search.service's select has no edited_at column (its posts answer null, as before).
    editedAt: row.edited_at == null ? null : isoDate(row.edited_at),
    mentions: row.mentions ?? [],
    // The tags are the text's (text-links.ts), as post_tags stores them.
    tags: tagsOf(row.content),
    linkCard: row.link_card ?? null,
    poll: toPollDto(row.poll),
  };
}

// Other modules read these names here.
export type { PostDto, PostPage } from './post.schema.js';
