/**
 * Cubey's answers as Markdown, rendered safely: paragraphs, headings, lists, quotes, code blocks,
 * inline code, bold, italics and links, built as React elements from the text. There is no raw
 * HTML: a `<script>` in an answer is shown as text. Links go only to http(s), mailto or paths of
 * this app; outside links open in a new tab with rel="noopener noreferrer".
 */
import { Fragment, type ReactNode, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '../../lib/cn';

type Block =
  | { type: 'code'; text: string }
  | { type: 'heading'; level: number; text: string }
  | { type: 'list'; ordered: boolean; items: string[] }
  | { type: 'quote'; text: string }
  | { type: 'paragraph'; text: string };

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) body.push(lines[i++]!);
      i += 1; // the closing fence (or the end of an answer still streaming)
      blocks.push({ type: 'code', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]!.length, text: heading[2]! });
      i += 1;
      continue;
    }
    const item = /^\s*([-*+]|\d{1,9}[.)])\s+/;
    if (item.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && item.test(lines[i]!) && /^\s*\d/.test(lines[i]!) === ordered) {
        items.push(lines[i]!.replace(item, ''));
        i += 1;
      }
      blocks.push({ type: 'list', ordered, items });
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) body.push(lines[i++]!.replace(/^\s*>\s?/, ''));
      blocks.push({ type: 'quote', text: body.join('\n') });
      continue;
    }
    const body: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() !== '' &&
      !/^\s*(```|~~~|#{1,6}\s|>|[-*+]\s|\d{1,9}[.)]\s)/.test(lines[i]!)
    ) {
      body.push(lines[i++]!);
    }
    blocks.push({ type: 'paragraph', text: body.join('\n') });
  }
  return blocks;
}

/**
 * A link target we allow, or null (then the text is shown without a link): an absolute http(s)
 * or mailto URL, or a path of this app: one `/` and then neither a slash nor a backslash (browsers
 * read `/\host` and `//host` as another site). Whitespace and control characters are refused
 * anywhere, since browsers drop tabs and newlines from a URL before reading it.
 */
export function safeHref(href: string): { href: string; internal: boolean } | null {
  const value = href.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is refused
  if (value === '' || /[\s\u0000-\u001f\u007f]/.test(value)) return null;
  if (/^\/[^/\\]/.test(value)) return { href: value, internal: true };
  if (/^(https?:\/\/[^/\\]|mailto:)/i.test(value)) {
    try {
      const url = new URL(value);
      if (url.protocol === 'mailto:' || url.hostname) return { href: url.href, internal: false };
    } catch {
      // not a URL
    }
  }
  return null;
}

const INLINE =
  /\\([\\`*_[\]<>#|()!~-])|`([^`]+)`|\*\*(.+?)\*\*|\*(.+?)\*|_(.+?)_|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    last = match.index + match[0].length;
    const [, escaped, code, bold, em1, em2, label, href, bare] = match;
    if (escaped !== undefined) out.push(escaped);
    else if (code !== undefined)
      out.push(
        <code key={key++} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]">
          {code}
        </code>,
      );
    else if (bold !== undefined) out.push(<strong key={key++}>{inline(bold)}</strong>);
    else if (em1 !== undefined || em2 !== undefined) out.push(<em key={key++}>{inline(em1 ?? em2!)}</em>);
    else {
      const target = safeHref(href ?? bare!);
      const content = label !== undefined ? inline(label) : bare;
      if (!target) out.push(<Fragment key={key++}>{content}</Fragment>);
      else if (target.internal)
        out.push(
          <Link
            key={key++}
            to={target.href}
            className="font-medium text-primary underline underline-offset-2"
          >
            {content}
          </Link>,
        );
      else
        out.push(
          <a
            key={key++}
            href={target.href}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-primary underline underline-offset-2"
          >
            {content}
          </a>,
        );
    }
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function lineBreaks(text: string): ReactNode[] {
  return text
    .split('\n')
    .flatMap((line, i) => (i === 0 ? inline(line) : [<br key={`br${i}`} />, ...inline(line)]));
}

export function Markdown({ source, className }: { source: string; className?: string }) {
  const blocks = useMemo(() => parseBlocks(source), [source]);
  return (
    <div className={cn('user-text grid gap-2 text-sm leading-relaxed', className)}>
      {blocks.map((block, index) => {
        switch (block.type) {
          case 'code':
            return (
              <pre key={index} className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs">
                <code>{block.text}</code>
              </pre>
            );
          case 'heading':
            return (
              <p key={index} className="font-semibold">
                {inline(block.text)}
              </p>
            );
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul';
            return (
              <List
                key={index}
                className={cn('grid gap-1 pl-5', block.ordered ? 'list-decimal' : 'list-disc')}
              >
                {block.items.map((item, i) => (
                  <li key={i}>{inline(item)}</li>
                ))}
              </List>
            );
          }
          case 'quote':
            return (
              <blockquote key={index} className="border-l-2 pl-3 text-muted-foreground">
                {lineBreaks(block.text)}
              </blockquote>
            );
          default:
            return <p key={index}>{lineBreaks(block.text)}</p>;
        }
      })}
    </div>
  );
}
