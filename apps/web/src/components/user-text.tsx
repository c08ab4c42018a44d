import { foldTag, tokenize } from '@cubes/api/text-links';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '../lib/cn';
import { splitLinks } from '../lib/linkify';

/** A member a post or comment mentions (its answer's `mentions`). */
export interface TextMention {
  id: string;
  username: string;
}

type Part =
  | { type: 'text'; value: string }
  | { type: 'link'; value: string; href: string }
  | { type: 'mention'; value: string; username: string }
  | { type: 'tag'; value: string; tag: string };

const LINK_CLASS = 'font-medium text-primary underline-offset-2 hover:underline';

/**
 * Links on a surface of their own colour (an own chat bubble is `bg-primary`): the text's own
 * colour, always underlined, so they are seen as links without a colour to tell them apart.
 */
export const LINK_ON_SURFACE_CLASS = 'font-medium text-current underline underline-offset-2';

/**
 * Text a member wrote (a post, a comment, a bio, a chat message), shown with its line breaks and
 * its http(s) URLs as links. Long words and links wrap (the `user-text` utility in index.css), so
 * put it in a `min-w-0` flex or grid child. Built from text nodes and <a> elements only: whatever
 * the text holds (`<script>`, markup) is shown as text, never parsed.
 *
 * Given `mentions` (a post's or comment's), its `@username`s of those members link to their
 * profiles and its `#tags` to their pages (`/tags/{tag}`), found by the server's own parser
 * (`@cubes/api/text-links`); an `@name` that is nobody stays text. `mentions="any"` links every
 * `@username` to its profile, for text the server resolves no mentions of (a direct message).
 * `linkClassName` replaces the links' look (LINK_ON_SURFACE_CLASS on a coloured surface). Given
 * `mark`, each piece of plain text is drawn by it (search marks the words it matched:
 * lib/mark-words.tsx, kept out of the first chunk).
 *
 * Its direction is the text's own (`dir="auto"`, from its first strong letter), not the page's:
 * an English post reads left to right in the Arabic app, and an Arabic one right to left in the
 * English app, each aligned to its own start. Inside it, a URL and an `@mention` are isolated left
 * to right and a `#tag` takes its own direction, so `@alice` in an Arabic sentence does not come
 * out as `alice@` (components/handle.tsx does the same for a handle on its own).
 */
export function UserText({
  text,
  className,
  mentions,
  linkClassName = LINK_CLASS,
  mark,
}: {
  text: string;
  className?: string;
  mentions?: readonly TextMention[] | 'any';
  linkClassName?: string;
  mark?: (text: string) => ReactNode;
}) {
  // Parts are derived from the text and never reorder: their index is a stable key.
  const parts = useMemo(() => splitParts(text, mentions), [text, mentions]);
  const shown = (value: string): ReactNode => (mark ? mark(value) : value);
  return (
    <p dir="auto" className={cn('user-text whitespace-pre-wrap', className)}>
      {parts.map((part, index): ReactNode => {
        switch (part.type) {
          case 'link':
            return (
              <a
                key={index}
                dir="ltr"
                href={part.href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className={linkClassName}
              >
                {shown(part.value)}
              </a>
            );
          case 'mention':
            return (
              <Link
                key={index}
                dir="ltr"
                to={`/profile/${encodeURIComponent(part.username)}`}
                className={linkClassName}
              >
                {shown(part.value)}
              </Link>
            );
          case 'tag':
            return (
              <Link
                key={index}
                dir="auto"
                to={`/tags/${encodeURIComponent(part.tag)}`}
                className={linkClassName}
              >
                {shown(part.value)}
              </Link>
            );
          default:
            return <span key={index}>{shown(part.value)}</span>;
        }
      })}
    </p>
  );
}

function splitParts(text: string, mentions: readonly TextMention[] | 'any' | undefined): Part[] {
  const links = splitLinks(text);
  if (!mentions) return links;
  const known =
    mentions === 'any' ? null : new Map(mentions.map((m) => [m.username.toLowerCase(), m.username]));
  const parts: Part[] = [];
  const pushText = (value: string) => {
    const previous = parts[parts.length - 1];
    if (previous?.type === 'text') previous.value += value;
    else parts.push({ type: 'text', value });
  };
  for (const part of links) {
    if (part.type === 'link') {
      parts.push(part);
      continue;
    }
    for (const token of tokenize(part.value)) {
      if (token.type === 'tag') parts.push({ type: 'tag', value: token.value, tag: foldTag(token.tag) });
      else if (token.type === 'mention' && (!known || known.has(token.username.toLowerCase()))) {
        parts.push({
          type: 'mention',
          value: token.value,
          username: known?.get(token.username.toLowerCase()) ?? token.username,
        });
      } else pushText(token.value);
    }
  }
  return parts;
}
