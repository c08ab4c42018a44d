import { TRENDING_WINDOW_LABEL, TRENDING_WINDOW_MS } from '@cubes/api/rules';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeTrpc, renderApp, sessionKnown } from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Trending tags (issue #46, bug 13)', () => {
  it('say their counts cover the trending window, which the tag page does not', async () => {
    expect(TRENDING_WINDOW_LABEL).toBe(`in the last ${TRENDING_WINDOW_MS / 3_600_000} h`);
    fakeTrpc({
      'auth.session': { data: null },
      'tags.trending': { data: [{ tag: 'cubes', postsCount: 4, peopleCount: 3 }] },
    });
    renderApp('/search');
    await sessionKnown();
    const link = await screen.findByRole('link', { name: /#cubes/ });
    expect(link.textContent).toContain('4 posts · 3 people in the last 24 h');
    expect(link.getAttribute('href')).toBe('/tags/cubes');
  });
});
