/**
 * The paged list's states, from what an infinite query reports: loading as a status, failed with
 * Retry, empty, the rows of every page, and Show more while the server has more.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PagedList, type PagedQuery } from './paged-list';

function query(patch: Partial<PagedQuery<string>>): PagedQuery<string> {
  return {
    isPending: false,
    isError: false,
    refetch: vi.fn(),
    hasNextPage: false,
    isFetchingNextPage: false,
    fetchNextPage: vi.fn(),
    ...patch,
  };
}

function list(q: PagedQuery<string>) {
  return render(
    <PagedList
      query={q}
      label="Followers"
      loading="Loading followers..."
      empty={<p>No one yet.</p>}
      renderItem={(name) => <li key={name}>{name}</li>}
    />,
  );
}

describe('PagedList', () => {
  it('says it is loading, as a status', () => {
    list(query({ isPending: true }));
    expect(screen.getByRole('status').textContent).toContain('Loading followers...');
  });

  it('says it failed, and Retry asks again', () => {
    const q = query({ isError: true });
    list(q);
    expect(screen.getByText('Could not load this list.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(q.refetch).toHaveBeenCalledOnce();
  });

  it('shows the empty state when no page has an item', () => {
    list(query({ data: { pages: [{ items: [] }] } }));
    expect(screen.getByText('No one yet.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('lists every page, and Show more fetches the next while there is one', () => {
    const q = query({ data: { pages: [{ items: ['Ann', 'Bo'] }, { items: ['Cy'] }] }, hasNextPage: true });
    const { rerender } = list(q);
    const rows = screen.getByRole('list', { name: 'Followers' }).querySelectorAll('li');
    expect([...rows].map((row) => row.textContent)).toEqual(['Ann', 'Bo', 'Cy']);
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(q.fetchNextPage).toHaveBeenCalledOnce();
    rerender(
      <PagedList
        query={{ ...q, hasNextPage: false }}
        loading="Loading followers..."
        empty={null}
        renderItem={(name) => <li key={name}>{name}</li>}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});
