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
  image_url: null,
  likes_count: 2,
  comments_count: 1,
  created_at: '2026-11-21T10:00:00.123456Z',
  edited_at: null,
  is_liked: true,
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
});
