/**
 * A post's own page (/posts/{id}, routes/post.tsx): where every link to a post leads (its card's
 * time, notifications, a profile's media, Cubey's sources), and what Share hands out.
 */
export function postPath(postId: string): string {
  return `/posts/${encodeURIComponent(postId)}`;
}
