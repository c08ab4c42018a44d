import { I18nProvider } from '@lingui/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { loadHighlighter } from './code-highlight';
import { Markdown, safeHref } from './markdown';
import { completeStreaming } from './streaming';

function show(source: string, streaming = false) {
  return render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter>
        <Markdown source={source} streaming={streaming} />
      </MemoryRouter>
    </I18nProvider>,
  ).container;
}

describe('Markdown answers', () => {
  it('renders code, lists and links safely: no raw HTML, links with noopener noreferrer', () => {
    const container = show(
      [
        'Hi <script>alert(1)</script> **there**',
        '',
        '- one',
        '- [site](https://example.com)',
        '',
        '```',
        'const x = 1;',
        '```',
        '',
        '[bad](javascript:alert(1)) [home](/gallery)',
      ].join('\n'),
    );
    expect(container.querySelector('script')).toBeNull();
    expect(screen.getByText(/<script>alert\(1\)<\/script>/)).toBeTruthy();
    expect(screen.getByText('there').tagName).toBe('STRONG');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    const external = screen.getByRole('link', { name: 'site' });
    expect(external.getAttribute('href')).toBe('https://example.com/');
    expect(external.getAttribute('rel')).toBe('noopener noreferrer');
    expect(external.getAttribute('target')).toBe('_blank');
    expect(container.querySelector('pre code')?.textContent).toBe('const x = 1;');
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(screen.getByText('bad')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'home' }).getAttribute('href')).toBe('/gallery');
    expect(screen.getByRole('link', { name: 'home' }).getAttribute('target')).toBeNull();
  });

  it('shows HTML in the text as text: no element, no handler, no image is loaded', () => {
    const container = show(
      [
        'An <img src=x onerror="alert(1)"> inline, and a block:',
        '',
        '<div onclick="alert(2)"><iframe src="https://evil.example"></iframe></div>',
        '',
        '<a href="javascript:alert(3)">click</a> and ![pixel](https://tracker.example/p.png)',
      ].join('\n'),
    );
    for (const tag of ['img', 'iframe', 'script', 'a[href^="javascript"]'])
      expect(container.querySelector(tag), tag).toBeNull();
    expect(container.querySelectorAll('div')).toHaveLength(1); // the answer's own box
    expect(container.querySelector('[onerror], [onclick]')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.textContent).toContain('<iframe src="https://evil.example"></iframe>');
    // An image is a link to it, never loaded.
    const pixel = screen.getByRole('link', { name: 'pixel' });
    expect(pixel.getAttribute('href')).toBe('https://tracker.example/p.png');
    expect(pixel.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('renders tables, with their alignment', () => {
    const container = show(
      ['| Member | Posts |', '| :----- | ----: |', '| @alice | 12 |', '| @bob | **3** |'].join('\n'),
    );
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Member', 'Posts']);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['@bob', '3']);
    expect(within(rows[2]!).getByText('3').tagName).toBe('STRONG');
    expect((container.querySelector('td:last-child') as HTMLElement).style.textAlign).toBe('right');
    // A wide table scrolls inside the answer instead of widening it.
    expect(table.parentElement?.className).toContain('overflow-x-auto');
  });

  it('renders nested lists, ordered and not', () => {
    const container = show(['1. First', '   - a', '   - b', '     1. deep', '2. Second'].join('\n'));
    const outer = container.querySelector(':scope > div > ol')!;
    expect(outer.children).toHaveLength(2);
    const inner = outer.querySelector(':scope > li > ul')!;
    expect([...inner.children].map((li) => li.firstChild?.textContent)).toEqual(['a', 'b']);
    expect(inner.querySelector('ol > li')?.textContent).toBe('deep');
    expect(outer.className).toContain('list-decimal');
    expect(inner.className).toContain('list-disc');
  });

  it('renders task lists as boxes the reader cannot tick', () => {
    const container = show(['- [x] Write the post', '- [ ] Add an image', '  - [ ] Crop it'].join('\n'));
    const boxes = [...container.querySelectorAll('input')];
    expect(boxes.map((b) => b.type)).toEqual(['checkbox', 'checkbox', 'checkbox']);
    expect(boxes.map((b) => b.checked)).toEqual([true, false, false]);
    expect(boxes.every((b) => b.disabled)).toBe(true);
    expect(container.querySelector('ul')?.className).toContain('list-none');
    expect(container.querySelector('li')?.textContent).toContain('Write the post');
  });

  it('keeps a single line break, and headings stay bold paragraphs', () => {
    const container = show(['# Title', 'line one', 'line two'].join('\n'));
    expect(container.querySelector('h1, h2, h3, h4, h5, h6')).toBeNull();
    expect(screen.getByText('Title').className).toContain('font-semibold');
    expect(container.querySelectorAll('br')).toHaveLength(1);
  });

  it('links only to absolute http(s) or mailto URLs and to paths of this app', () => {
    for (const [href, expected] of [
      ['/gallery', { href: '/gallery', internal: true }],
      ['/profile/alice?tab=media', { href: '/profile/alice?tab=media', internal: true }],
      ['https://example.com/a', { href: 'https://example.com/a', internal: false }],
      ['HTTP://example.com', { href: 'http://example.com/', internal: false }],
      ['mailto:cubey@example.com', { href: 'mailto:cubey@example.com', internal: false }],
    ] as const) {
      expect(safeHref(href), href).toEqual(expected);
    }
    for (const href of [
      '/\\evil.example',
      '/\\/evil.example',
      '/%5Cevil.example',
      '/%5c/evil.example',
      '/%2F/evil.example',
      '//evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/',
      '',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'https:/evil.example',
      'https:\\\\evil.example',
      'https://',
      'evil.example',
      '../secret',
    ]) {
      expect(safeHref(href), JSON.stringify(href)).toBeNull();
    }
    show(
      '[x](/\\evil.example) [y](//evil.example) [z](<java\nscript:alert(1)>) <javascript:alert(1)> [w](data:text/html,hi)',
    );
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('links bare URLs, as before', () => {
    show('See https://example.com/page.');
    const link = screen.getByRole('link', { name: 'https://example.com/page' });
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('renders strikethrough, and inline code without a block', () => {
    const container = show('~~old~~ new and `x`');
    expect(container.querySelector('del')?.textContent).toBe('old');
    expect(container.querySelector('code')?.textContent).toBe('x');
    expect(container.querySelector('pre')).toBeNull();
  });

  it('highlights a code block with classes only (no inline style), names its language, copies it', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    try {
      const container = show(['```ts', 'const answer: number = 42; // cubes', '```'].join('\n'));
      expect(screen.getByText('ts')).toBeTruthy();
      const code = container.querySelector('pre code')!;
      // Plain at first, the same text highlighted once the chunk is there.
      expect(code.textContent).toBe('const answer: number = 42; // cubes');
      await loadHighlighter();
      await waitFor(() => expect(code.querySelector('.hljs-keyword')?.textContent).toBe('const'));
      expect(code.querySelector('.hljs-comment')?.textContent).toBe('// cubes');
      expect(code.textContent).toBe('const answer: number = 42; // cubes');
      expect(container.querySelector('[style]:not(td):not(th)')).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
      await waitFor(() => expect(writeText).toHaveBeenCalledWith('const answer: number = 42; // cubes'));
      expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows an unfinished table as a table while streaming, and an open fence as growing code', () => {
    const header = show('Here:\n\n| Member | Posts |', true);
    expect(
      within(header)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Member', 'Posts']);
    const half = show('| Member | Posts |\n| :-- | -', true);
    expect(within(half).getAllByRole('columnheader')).toHaveLength(2);
    const rows = show('| Member | Posts |\n| --- | --- |\n| @al', true);
    expect(within(rows).getAllByRole('row')).toHaveLength(2);
    // Not streaming: the text is shown as it is.
    expect(show('| Member | Posts |').querySelector('table')).toBeNull();
    const fence = show('Code:\n\n```js\nlet a = 1;\nlet b', true);
    expect(fence.querySelector('pre code')?.textContent).toBe('let a = 1;\nlet b');
  });
});

describe('completeStreaming', () => {
  it('adds or finishes the delimiter row of the last table, keeping typed alignments', () => {
    expect(completeStreaming('| a | b | c |')).toBe('| a | b | c |\n| --- | --- | --- |');
    expect(completeStreaming('| a | b | c |\n| :-: | --')).toBe('| a | b | c |\n| :-: | --- | --- |');
    expect(completeStreaming('| a | b |\n| :-: | --')).toBe('| a | b |\n| :-: | --');
    expect(completeStreaming('| a | b |\n| --- | --- |\n| 1 | 2')).toBe('| a | b |\n| --- | --- |\n| 1 | 2');
    expect(completeStreaming('text\n\n| a \\| b | c |')).toBe('text\n\n| a \\| b | c |\n| --- | --- |');
  });

  it('leaves alone what is no table, and the inside of a code fence', () => {
    for (const text of ['plain', 'a | b', '| a |\n\nnext', '```\n| a | b |', '| a | b |\nnot a delimiter'])
      expect(completeStreaming(text)).toBe(text);
  });
});
