/**
 * Cubey's answers as Markdown (GitHub's flavour: tables, nested and task lists, strikethrough,
 * bare URLs), rendered by react-markdown as React elements. There is no raw HTML: a `<script>`
 * in an answer is shown as text, and no image is loaded (an image becomes a link to it). Links go
 * only to http(s), mailto or paths of this app; outside links open in a new tab with
 * rel="noopener noreferrer". The module loads with a member's chats (cubey-chat.tsx), not with
 * the Cubes page.
 *
 * Code blocks are highlighted (code-highlight.ts, loaded on demand) and have a Copy button. While
 * an answer streams (`streaming`), a table whose delimiter row has not come yet is shown as a
 * table already (streaming.ts), and an open code fence is a code block that grows, so the text
 * does not jump from one shape to another.
 */
import { useLingui } from '@lingui/react/macro';
import { type ComponentProps, type ReactNode, useMemo } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import { Link } from 'react-router-dom';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { cn } from '../../lib/cn';
import { useHighlighted } from './code-highlight';
import { CopyButton } from './copy-button';
import { completeStreaming } from './streaming';

/**
 * A link target we allow, or null (then the text is shown without a link): an absolute http(s)
 * or mailto URL, or a path of this app: one `/` and then neither a slash nor a backslash (browsers
 * read `/\host` and `//host` as another site, and a path that begins with an encoded slash or
 * backslash is refused with them). Whitespace and control characters are refused
 * anywhere, since browsers drop tabs and newlines from a URL before reading it.
 */
export function safeHref(href: string): { href: string; internal: boolean } | null {
  const value = href.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is refused
  if (value === '' || /[\s\u0000-\u001f\u007f]/.test(value)) return null;
  // The Markdown parser percent-encodes a backslash: `/%5C` is refused as `/\` is.
  if (/^\/[^/\\]/.test(value) && !/^\/%(2f|5c)/i.test(value)) return { href: value, internal: true };
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

const LINK = 'font-medium text-primary underline underline-offset-2';

function SafeLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const target = href === undefined ? null : safeHref(href);
  if (!target) return <>{children}</>;
  if (target.internal)
    return (
      <Link to={target.href} className={LINK}>
        {children}
      </Link>
    );
  return (
    <a href={target.href} target="_blank" rel="noopener noreferrer" className={LINK}>
      {children}
    </a>
  );
}

/** Headings stay inside the answer's outline: bold paragraphs, not page headings. */
function Heading({ children }: { children?: ReactNode }) {
  return <p className="font-semibold">{children}</p>;
}

function List({ ordered, className, children }: ComponentProps<'ul'> & { ordered: boolean }) {
  const tasks = className?.includes('contains-task-list');
  const Tag = ordered ? 'ol' : 'ul';
  return (
    <Tag
      className={cn(
        'grid gap-1 [&_ol]:mt-1 [&_ul]:mt-1',
        tasks ? 'list-none ps-1' : cn('ps-5', ordered ? 'list-decimal' : 'list-disc'),
      )}
    >
      {children}
    </Tag>
  );
}

const components: Components = {
  a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
  // Nothing is fetched from an answer: an image is a link to it, named by its alt text.
  img: ({ src, alt }) => <SafeLink href={typeof src === 'string' ? src : undefined}>{alt || src}</SafeLink>,
  h1: Heading,
  h2: Heading,
  h3: Heading,
  h4: Heading,
  h5: Heading,
  h6: Heading,
  ul: ({ className, children }) => (
    <List ordered={false} className={className}>
      {children}
    </List>
  ),
  ol: ({ className, children }) => (
    <List ordered className={className}>
      {children}
    </List>
  ),
  // A task list's own list-style is none: a list nested in one of its items is indented here.
  li: ({ className, children }) => (
    <li className={className?.includes('task-list-item') ? '[&>ol]:ps-6 [&>ul]:ps-6' : undefined}>
      {children}
    </li>
  ),
  // A task list's box: shown, never ticked by the reader.
  input: ({ type, checked }) =>
    type === 'checkbox' ? (
      <input
        type="checkbox"
        checked={!!checked}
        disabled
        readOnly
        className="me-1.5 size-3.5 align-[-2px] accent-primary"
      />
    ) : null,
  blockquote: ({ children }) => (
    <blockquote className="grid gap-2 border-s-2 ps-3 text-muted-foreground">{children}</blockquote>
  ),
  pre: ({ node }) => <CodeBlock node={node} />,
  code: ({ children }) => (
    <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]">{children}</code>
  ),
  table: ({ children }) => (
    <div className="max-w-full overflow-x-auto">
      <table className="w-max min-w-full border-collapse text-start text-xs">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th style={style} className="border-b bg-muted/60 px-2 py-1 font-semibold">
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border-b px-2 py-1 align-top">
      {children}
    </td>
  ),
  hr: () => <hr className="border-border" />,
};

type Element = NonNullable<ExtraProps['node']>;
type ElementContent = Element['children'][number];

/** The text of a hast node and its children. */
function textOf(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** A fenced or indented code block: its language (from ```lang), highlighted, with Copy. */
function CodeBlock({ node }: { node?: Element | undefined }) {
  const code = node?.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const text = (code ? textOf(code) : '').replace(/\n$/, '');
  const classes = code?.properties.className;
  const language =
    (Array.isArray(classes) ? classes : [])
      .map(String)
      .find((c) => c.startsWith('language-'))
      ?.slice('language-'.length) ?? null;
  const highlighted = useHighlighted(text, language);
  const { t } = useLingui();
  return (
    <div className="grid overflow-hidden rounded-md border bg-muted/70">
      <div className="flex items-center justify-between gap-2 border-b px-2 py-0.5">
        <span className="font-mono text-xs text-muted-foreground">
          {language ?? t({ message: 'code', comment: 'Over a code block whose language is not named' })}
        </span>
        <CopyButton text={text} label={t`Copy code`} />
      </div>
      <pre className="overflow-x-auto p-3 font-mono text-xs leading-relaxed">
        <code className="hljs">{highlighted}</code>
      </pre>
    </div>
  );
}

const remarkPlugins = [remarkGfm, remarkBreaks];

export function Markdown({
  source,
  className,
  streaming = false,
}: {
  source: string;
  className?: string;
  /** The answer is still being written: unfinished tables show as tables. */
  streaming?: boolean;
}) {
  const text = useMemo(() => (streaming ? completeStreaming(source) : source), [source, streaming]);
  return (
    <div className={cn('user-text grid gap-2 text-sm leading-relaxed', className)}>
      <ReactMarkdown remarkPlugins={remarkPlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
