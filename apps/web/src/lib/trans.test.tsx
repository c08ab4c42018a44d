/**
 * The macros' <Trans> (lib/trans.tsx): a member's text in a message is drawn as it was written,
 * tags and all, in the server's render as in the browser; numbers still choose a plural's form.
 */
import { Plural, Trans } from '@lingui/react/macro';
import { render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, test, vi } from 'vitest';
import { AppI18nProvider } from './i18n-provider';

const NAME = 'Eve "the" <b>x</b> & <0>y</0> <script>a()</script>';

function Greeting({ name, count }: { name: string; count: number }) {
  return (
    <p>
      <Trans>
        Hi {name}, you have <strong>{count}</strong> <Plural value={count} one="post" other="posts" />
      </Trans>
    </p>
  );
}

afterEach(() => vi.restoreAllMocks());

test('a name with tags in it is drawn as written, with no error', () => {
  const errors = vi.spyOn(console, 'error');
  const { container } = render(
    <AppI18nProvider>
      <Greeting name={NAME} count={2} />
    </AppI18nProvider>,
  );
  expect(container.textContent).toBe(`Hi ${NAME}, you have 2 posts`);
  expect(container.querySelector('strong')?.textContent).toBe('2');
  expect(container.querySelector('b, script')).toBeNull();
  expect(errors).not.toHaveBeenCalled();

  const html = renderToString(
    <AppI18nProvider>
      <Greeting name={NAME} count={1} />
    </AppI18nProvider>,
  );
  expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
  expect(html).toContain('&lt;script&gt;');
  expect(html).toMatch(/1<\/strong> (<!-- -->)?post</);
});
