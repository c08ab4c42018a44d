/**
 * The paged list's states, from what an infinite query reports: loading as a status, failed with
 * Retry, empty, the rows of every page, and Show more while the server has more.
 */

import { I18nProvider } from '@lingui/react';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../lib/i18n';
import { PagedList, type PagedQuery } from './paged-list';

/** The app's i18n (English, activated in test/setup.ts) for components rendered on their own. */
function wrapper({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

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
    { wrapper },
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
