/**
 * The link cards REST row: the author removes their post's card. The card itself is the post
 * answer's `linkCard` field (posts' rows). src/rest.ts collects it; docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const linkCardsRest = [
  {
    method: 'DELETE',
    path: '/api/posts/:id/link-card',
    procedure: 'linkCards.remove',
    summary: "Remove your post's link card (idempotent); another member's post is 404",
    auth: true,
    params: { id: 'postId' },
  },
] as const satisfies readonly RestRowOf<'linkCards'>[];
