import { useMemo } from 'react';
import { cn } from '../lib/cn';
import { splitLinks } from '../lib/linkify';

/**
 * Text a member wrote (a post, a comment, a bio, a chat message), shown with its line breaks and
 * its http(s) URLs as links. Long words and links wrap (the `user-text` utility in index.css), so
 * put it in a `min-w-0` flex or grid child. Built from text nodes and <a> elements only: whatever
 * the text holds (`<script>`, markup) is shown as text, never parsed.
 */
export function UserText({ text, className }: { text: string; className?: string }) {
  // Parts are derived from the text and never reorder: their index is a stable key.
  const parts = useMemo(() => splitLinks(text), [text]);
  return (
    <p className={cn('user-text whitespace-pre-wrap', className)}>
      {parts.map((part, index) =>
        part.type === 'link' ? (
          <a
            key={index}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="font-medium text-primary underline-offset-2 hover:underline"
          >
            {part.value}
          </a>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </p>
  );
}
