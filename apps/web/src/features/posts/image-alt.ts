/** The text alternative of a post's image that has no description of its own (its card, its page). */
import type { Post } from './post-cache';

/** What a screen reader says for an image: its description, else the post's words, else who posted it. */
export function fallbackAlt(post: Post): string {
  const text = post.content.replace(/\s+/g, ' ').trim();
  if (!text) return `Image attached by ${post.userDisplayName}`;
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}
