import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, bob, deferred, fakeTrpc, renderApp, serverError, sessionKnown } from '../../test/fake-trpc';
import { toastRegion } from '../../test/toasts';
import { masonryColumns } from './masonry';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function item(i: number, type: 'art' | 'music' | 'fun' | 'video', overrides = {}) {
  return {
    id: `3f2c0d8e-0000-4000-8000-0000000003${String(i).padStart(2, '0')}`,
    type,
    title: `Item ${i}`,
    imageUrl: `/objects/uploads/i${i}`,
    width: 640,
    height: 400 + i * 10,
    creator: { id: bob.id, username: 'bob', displayName: 'Bob Block', avatarUrl: null },
    createdAt: new Date().toISOString(),
    favoritesCount: 2,
    isFavorite: false,
    ...overrides,
  };
}

const page = {
  items: [item(1, 'art'), item(2, 'music'), item(3, 'fun'), item(4, 'video')],
  stats: { total: 4, art: 1, music: 1, fun: 1, video: 1 },
  nextCursor: null,
};

describe('gallery page', () => {
  it('shows the stat tiles, the grid, the type filter and the type selector', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      // The filter is the server's: it answers with the items whose type contains `q`.
      'gallery.list': (input) => ({
        data: { ...page, items: page.items.filter((i) => i.type.includes(input?.q ?? '')) },
      }),
    });
    renderApp('/gallery');
    expect(await screen.findByRole('article', { name: 'Item 1' })).toBeTruthy();
    for (const label of ['Total Media', 'Art', 'Music', 'Fun'])
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    const select = screen.getByRole('combobox', { name: 'Type' }) as HTMLSelectElement;
    expect(select.value).toBe('all');
    expect([...select.options].map((o) => o.text)).toEqual(['All Types', 'Art', 'Music', 'Fun', 'Video']);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by type' }), { target: { value: 'mus' } });
    await waitFor(() =>
      expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Item 2']),
    );
    expect(server.called('gallery.list').at(-1)!.input).toMatchObject({ type: 'all', q: 'mus' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by type' }), { target: { value: 'zzz' } });
    expect(await screen.findByText('No items found')).toBeTruthy();

    fireEvent.change(select, { target: { value: 'art' } });
    await waitFor(() =>
      expect(server.called('gallery.list').some((c) => c.input?.type === 'art')).toBe(true),
    );
  });

  it('dims the previous type’s items, busy, until the chosen type’s answer comes', async () => {
    const videos = deferred<{ data: typeof page }>();
    fakeTrpc({
      'auth.session': { data: null },
      'gallery.list': (input) => (input?.type === 'video' ? videos.promise : { data: page }),
    });
    renderApp('/gallery');
    expect(await screen.findByRole('article', { name: 'Item 1' })).toBeTruthy();
    const grid = screen.getByRole('list', { name: 'Gallery items' });
    expect(grid.getAttribute('aria-busy')).toBeNull();
    fireEvent.change(screen.getByRole('combobox', { name: 'Type' }), { target: { value: 'video' } });
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Gallery items' }).getAttribute('aria-busy')).toBe('true'),
    );
    videos.resolve({ data: { ...page, items: [page.items[3]!] } });
    await waitFor(() =>
      expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Item 4']),
    );
    expect(screen.getByRole('list', { name: 'Gallery items' }).getAttribute('aria-busy')).toBeNull();
  });

  it('asks a visitor to log in on the heart and sends nothing', async () => {
    const server = fakeTrpc({ 'auth.session': { data: null }, 'gallery.list': { data: page } });
    renderApp('/gallery');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: /^Add Item 1 to favorites, / }));
    expect(await within(await toastRegion()).findByText('Please login to favorite items')).toBeTruthy();
    expect(within(await toastRegion()).getByText('You need to be logged in to save favorites')).toBeTruthy();
    expect(server.called('gallery.favorite')).toHaveLength(0);
  });

  it('flips the heart at once and rolls back on failure', async () => {
    const gate = deferred<typeof serverError>();
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'gallery.list': { data: page },
      'gallery.favorite': () => gate.promise,
    });
    renderApp('/gallery');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: /^Add Item 1 to favorites, / }));
    const flipped = await screen.findByRole('button', { name: /^Remove Item 1 from favorites, / });
    expect(flipped.getAttribute('aria-pressed')).toBe('true');
    expect(flipped.textContent).toBe('3');
    gate.resolve(serverError);
    expect(await within(await toastRegion()).findByText('Failed to update favorite')).toBeTruthy();
    expect(within(await toastRegion()).getByText('Please try again')).toBeTruthy();
    const back = await screen.findByRole('button', { name: /^Add Item 1 to favorites, / });
    expect(back.textContent).toBe('2');
  });

  it('opens a lightbox that the arrow keys move through', async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'gallery.list': { data: page } });
    renderApp('/gallery');
    const opener = await screen.findByRole('button', { name: 'View Item 1, Art' });
    fireEvent.click(opener);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Item 1')).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    const next = within(dialog).getByRole('heading').textContent;
    expect(next).not.toBe('Item 1');
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    expect(within(dialog).getByRole('heading').textContent).toBe('Item 1');
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    const previous = within(dialog).getByRole('heading').textContent;
    expect(previous).not.toBe(next);
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    // Right to left (Arabic), the next item is on the left: the arrow keys are mirrored.
    document.documentElement.dir = 'rtl';
    try {
      fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
      expect(within(dialog).getByRole('heading').textContent).toBe(next);
      fireEvent.keyDown(dialog, { key: 'ArrowRight' });
      fireEvent.keyDown(dialog, { key: 'ArrowRight' });
      expect(within(dialog).getByRole('heading').textContent).toBe(previous);
    } finally {
      document.documentElement.dir = 'ltr';
    }
    // Closing gives focus back to the opener, without scrolling the page to it.
    const focus = vi.spyOn(opener, 'focus');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
  });
});

describe('gallery counts and types (issue #46)', () => {
  it('has a Video tile, says what each item is, and counts the lightbox against the stats of the filter', async () => {
    // The first page holds 4 of the 45 items; the next page comes when the lightbox steps past it.
    const first = {
      ...page,
      stats: { total: 45, art: 12, music: 11, fun: 12, video: 10 },
      nextCursor: 'next',
    };
    const second = { items: [item(5, 'art')], stats: first.stats, nextCursor: null };
    fakeTrpc({
      'auth.session': { data: null },
      'gallery.list': (input) => ({ data: input?.cursor ? second : first }),
    });
    renderApp('/gallery');
    await screen.findByRole('article', { name: 'Item 4' });
    // The Video tile, with its count.
    expect(screen.getAllByText('Video').some((label) => label.nextElementSibling?.textContent === '10')).toBe(
      true,
    );
    // A badge says what the item is; nothing offers to play it.
    const video = await screen.findByRole('button', { name: 'View Item 4, Video' });
    expect(within(video).getByText('Video')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /play/i })).toBeNull();
    fireEvent.click(video);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Video by Bob Block · 4 of 45/)).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    await waitFor(() => expect(within(dialog).getByRole('heading').textContent).toBe('Item 5'));
    expect(within(dialog).getByText(/Art by Bob Block · 5 of 45/)).toBeTruthy();
  });
});

describe('masonryColumns', () => {
  it('puts each item in the shortest column so far', () => {
    const tall = { width: 100, height: 300 };
    const short = { width: 100, height: 100 };
    expect(masonryColumns([tall, short, short, short], 2)).toEqual([[0], [1, 2, 3]]);
    expect(masonryColumns([], 3)).toEqual([[], [], []]);
  });
});
