/**
 * Lazy parts (lib/lazy-part.ts): the server's render notes the parts it drew; loaded before
 * hydrating, a part hydrates in the same pass, so a press right after `hydrateRoot` is not lost.
 */
import { act, fireEvent } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToReadableStream } from 'react-dom/server';
import { afterEach, expect, test, vi } from 'vitest';
import { lazyPart, loadParts, PartsDrawn } from './lazy-part';

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((n) => n + 1)}>
      {label} {count}
    </button>
  );
}

// The server's and the browser's copy of one part: in a browser its module has not loaded yet
// when the page hydrates (here the server's render would have loaded the one copy). The name's
// last definition is the one loadParts loads: the browser's.
const loads = vi.fn(async () => Counter);
const ServerPart = lazyPart('lazy-part-test', async () => Counter);
const BrowserPart = lazyPart('lazy-part-test', loads);
// A browser's part that nothing loads before hydrating: what every part was before.
const NotLoaded = lazyPart('lazy-part-test-not-loaded', async () => Counter);

function Page({ Part }: { Part: typeof ServerPart }) {
  return (
    <main>
      <Suspense fallback={<p>loading</p>}>
        <Part label="Pressed" />
      </Suspense>
    </main>
  );
}

async function serverHtml(drawn = new Set<string>()): Promise<string> {
  const stream = await renderToReadableStream(
    <PartsDrawn.Provider value={drawn}>
      <Page Part={ServerPart} />
    </PartsDrawn.Provider>,
  );
  await stream.allReady;
  return new Response(stream).text();
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.replaceChildren();
});

test('the server notes the parts it drew, and only those', async () => {
  const drawn = new Set<string>();
  const html = await serverHtml(drawn);
  // Drawn whole, not its fallback: the server's render waits for the part's code.
  expect(html.replaceAll('<!-- -->', '')).toContain('<button type="button">Pressed 0</button>');
  expect([...drawn]).toEqual(['lazy-part-test']);
});

/** The server's HTML of the page, in the document. */
async function serverPage(): Promise<HTMLElement> {
  const container = document.createElement('div');
  container.innerHTML = await serverHtml();
  document.body.append(container);
  return container;
}

test('loaded before hydrating, a part hydrates at once and takes a press made right after', async () => {
  const container = await serverPage();
  const errors = vi.spyOn(console, 'error');
  await loadParts(['lazy-part-test', 'a part nobody defined']);
  act(() => {
    root = hydrateRoot(container, <Page Part={BrowserPart} />);
  });
  // No task has run since: a part that suspended would still be the server's HTML, with no handler.
  fireEvent.click(container.querySelector('button')!);
  expect(container.querySelector('button')?.textContent).toBe('Pressed 1');
  expect(loads).toHaveBeenCalledTimes(1);
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
});

test('a part not loaded before hydrating loses that press (why the parts are loaded first)', async () => {
  const container = await serverPage();
  act(() => {
    root = hydrateRoot(container, <Page Part={NotLoaded} />);
  });
  fireEvent.click(container.querySelector('button')!);
  expect(container.querySelector('button')?.textContent).toBe('Pressed 0');
});
