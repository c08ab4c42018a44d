import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { safeHref, splitLinks } from '../lib/linkify';
import { UserText } from './user-text';

describe('splitLinks', () => {
  it('returns plain text as one part', () => {
    expect(splitLinks('hello world')).toEqual([{ type: 'text', value: 'hello world' }]);
    expect(splitLinks('')).toEqual([]);
  });

  it('splits http and https links out of the text', () => {
    expect(splitLinks('see https://cubes.ai/a?b=1#c and http://x.io')).toEqual([
      { type: 'text', value: 'see ' },
      { type: 'link', value: 'https://cubes.ai/a?b=1#c', href: 'https://cubes.ai/a?b=1#c' },
      { type: 'text', value: ' and ' },
      { type: 'link', value: 'http://x.io', href: 'http://x.io/' },
    ]);
  });

  it('leaves sentence punctuation and unmatched parentheses outside the link', () => {
    expect(splitLinks('Look: https://a.io/x. (or https://b.io/y)!')).toEqual([
      { type: 'text', value: 'Look: ' },
      { type: 'link', value: 'https://a.io/x', href: 'https://a.io/x' },
      { type: 'text', value: '. (or ' },
      { type: 'link', value: 'https://b.io/y', href: 'https://b.io/y' },
      { type: 'text', value: ')!' },
    ]);
    expect(splitLinks('https://en.wikipedia.org/wiki/Cube_(algebra)')[0]).toMatchObject({
      type: 'link',
      value: 'https://en.wikipedia.org/wiki/Cube_(algebra)',
    });
  });

  it('never links other schemes', () => {
    expect(splitLinks('javascript:alert(1) data:text/html,x ftp://x.io')).toEqual([
      { type: 'text', value: 'javascript:alert(1) data:text/html,x ftp://x.io' },
    ]);
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('https://')).toBeNull();
  });

  it('stops a URL at quotes and angle brackets', () => {
    const parts = splitLinks('<a href="https://evil.io/x">hi</a>');
    expect(parts.filter((p) => p.type === 'link')).toEqual([
      { type: 'link', value: 'https://evil.io/x', href: 'https://evil.io/x' },
    ]);
  });
});

describe('<UserText>', () => {
  it('renders links as safe anchors and keeps line breaks', () => {
    const { container } = render(<UserText text={'first line\nvisit https://cubes.ai now'} />);
    const link = screen.getByRole('link', { name: 'https://cubes.ai' });
    expect(link.getAttribute('href')).toBe('https://cubes.ai/');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(container.textContent).toBe('first line\nvisit https://cubes.ai now');
    expect(container.querySelector('p')?.className).toContain('whitespace-pre-wrap');
    expect(container.querySelector('p')?.className).toContain('user-text');
    // The text's own direction, not the page's (an English post in the Arabic app).
    expect(container.querySelector('p')?.getAttribute('dir')).toBe('auto');
  });

  it('shows markup as text: no element is created from the content', () => {
    const text = '<script>window.hacked = true</script><img src=x onerror="alert(1)"> <b>bold</b>';
    const { container } = render(<UserText text={text} />);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe(text);
    expect((window as unknown as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('keeps a mention and a URL left to right inside right-to-left text, and a tag in its own direction', () => {
    render(
      <MemoryRouter>
        <UserText text="صباح الخير @alice #وسم https://cubes.ai" mentions="any" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: '@alice' }).getAttribute('dir')).toBe('ltr');
    expect(screen.getByRole('link', { name: '#وسم' }).getAttribute('dir')).toBe('auto');
    expect(screen.getByRole('link', { name: 'https://cubes.ai' }).getAttribute('dir')).toBe('ltr');
  });
});
