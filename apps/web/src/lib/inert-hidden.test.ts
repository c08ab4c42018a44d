import { afterEach, describe, expect, it } from 'vitest';
import { inertWhileHidden } from './inert-hidden';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('inertWhileHidden', () => {
  it('makes a region a modal layer hid inert, and lifts it when the layer closes', async () => {
    document.body.innerHTML = '<div id="page"><a href="/">Home</a></div><div id="own" inert></div>';
    const stop = inertWhileHidden();
    const page = document.getElementById('page')!;
    // What the aria-hidden package does on opening and closing.
    page.setAttribute('aria-hidden', 'true');
    page.setAttribute('data-aria-hidden', 'true');
    await flush();
    expect(page.hasAttribute('inert')).toBe(true);
    page.removeAttribute('aria-hidden');
    page.removeAttribute('data-aria-hidden');
    await flush();
    expect(page.hasAttribute('inert')).toBe(false);
    stop();
  });

  it('leaves plain aria-hidden (icons) and an inert of its own alone', async () => {
    document.body.innerHTML = '<svg id="icon"></svg><div id="own" inert></div>';
    const stop = inertWhileHidden();
    const icon = document.getElementById('icon')!;
    const own = document.getElementById('own')!;
    icon.setAttribute('aria-hidden', 'true');
    own.setAttribute('aria-hidden', 'true');
    own.setAttribute('data-aria-hidden', 'true');
    await flush();
    expect(icon.hasAttribute('inert')).toBe(false);
    own.removeAttribute('aria-hidden');
    own.removeAttribute('data-aria-hidden');
    await flush();
    expect(own.hasAttribute('inert')).toBe(true);
    stop();
  });
});
