import { describe, expect, it } from 'vitest';
import { postSchema } from './post.schema.js';
import { isoDate, type PostRow, toPostDto } from './post.serializer.js';

const row: PostRow = {
  id: '0b7c1e2f-0000-4000-8000-000000000001',
  author_id: '0b7c1e2f-0000-4000-8000-000000000002',
  username: 'alice',
  display_name: 'Alice',
  avatar_url: null,
  content: 'hello',
  content_warning: null,
  image_url: null,
  images: [],
  likes_count: 2,
  comments_count: 1,
  reposts_count: 3,
  created_at: '2026-11-21T10:00:00.123456Z',
  edited_at: null,
  pinned_at: null,
  quote_of: null,
  is_liked: true,
  is_reposted: true,
  is_bookmarked: true,
};

describe('toPostDto', () => {
  it('gives times as ISO text to the millisecond, as JSON gave a Date', () => {
    expect(isoDate('2026-11-21T10:00:00.123456Z')).toBe('2026-11-21T10:00:00.123Z');
    expect(isoDate(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('builds the post the schema describes', () => {
    const post = toPostDto({ ...row, edited_at: '2026-11-21T10:05:00.000001Z' });
    expect(postSchema.parse(post)).toEqual(post);
    expect(post).toMatchObject({
      userId: row.author_id,
      userDisplayName: 'Alice',
      createdAt: '2026-11-21T10:00:00.123Z',
      editedAt: '2026-11-21T10:05:00.000Z',
      isLiked: true,
    });
    expect(toPostDto(row).editedAt).toBeNull();
  });

  it('gives the images in order with thumbnails, sizes and descriptions; imageUrl is the first', () => {
    const post = toPostDto({
      ...row,
      image_url: '/objects/uploads/a',
      images: [
        { url: '/objects/uploads/a', width: 800, height: 600, alt: 'A red cube' },
        { url: '/objects/uploads/b', width: null, height: null, alt: null },
      ],
    });
    expect(postSchema.parse(post)).toEqual(post);
    expect(post.imageUrl).toBe('/objects/uploads/a');
    expect(post.images).toEqual([
      {
        url: '/objects/uploads/a',
        thumbUrl: '/objects/uploads/a/thumb',
        width: 800,
        height: 600,
        alt: 'A red cube',
        sensitive: false,
      },
      {
        url: '/objects/uploads/b',
        thumbUrl: '/objects/uploads/b/thumb',
        width: null,
        height: null,
        alt: null,
        sensitive: false,
      },
    ]);
  });

  it('shows a row written with image_url alone as one image without size or description', () => {
    const post = toPostDto({ ...row, image_url: '/objects/uploads/c', images: [] });
    expect(post.images).toEqual([
      {
        url: '/objects/uploads/c',
        thumbUrl: '/objects/uploads/c/thumb',
        width: null,
        height: null,
        alt: null,
        sensitive: false,
      },
    ]);
  });
});
