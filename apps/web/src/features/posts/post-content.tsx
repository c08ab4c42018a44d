import { useMemo } from 'react';
import { cn } from '../../lib/cn';
import { splitLinks } from '../../lib/linkify';

/**
 * User text with its line breaks, and http(s) URLs as links. Built from text nodes and <a>
 * elements only: whatever the text holds (`<script>`, markup) is shown as text, never parsed.
 */
export function PostContent({ text, className }: { text: string; className?: string }) {
  // Parts are derived from the text and never reorder: their index is a stable key.
  const parts = useMemo(() => splitLinks(text), [text]);
  return (
    <p className={cn('whitespace-pre-wrap break-words [overflow-wrap:anywhere]', className)}>
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
