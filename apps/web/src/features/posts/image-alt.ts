/** The text alternative of a post's image that has no description of its own (its card, its page). */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Post } from './post-cache';

/** What a screen reader says for an image: its description, else the post's words, else who posted it. */
export function fallbackAlt(post: Post, i18n: I18n): string {
  const text = post.content.replace(/\s+/g, ' ').trim();
  const name = post.userDisplayName;
  if (!text) return i18n._(msg`Image attached by ${name}`);
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}
