/**
 * The Search page. The box waits 300 ms after the last keystroke, then puts the query in the URL
 * (`/search?q=`), which is what the results follow: a search can be shared, survives a reload and
 * Back returns to the previous one. The chosen tab is in the URL too (`&tab=posts`), and stays
 * while new results arrive. Tags starting with the query are listed beside users, posts and
 * media (tag-result.tsx). An empty query shows suggestions. `/` focuses the box from anywhere on
 * the page; Escape clears it.
 */

import { Trans, useLingui } from '@lingui/react/macro';
import { Search as SearchIcon, X } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DrawnAfterMount } from '../../components/drawn-after-mount';
import { ListLoading } from '../../components/list-state';
import { NarrowSideColumn } from '../../components/shell/side-column';
import { Tabs } from '../../components/ui/tabs';
import { errorToast } from '../../lib/error-toast';
import { useHydrated } from '../../lib/server-rendered';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { type TagMatch, TagMatches, useTagMatches } from '../tags/tag-result';
import { useSearchQuery, useSearchSuggestionsQuery } from './queries';
import { MediaResult, PostResult, type SearchAnswer, UserResult } from './search-results';

export const SEARCH_DEBOUNCE_MS = 300;
/** The server's maximum (SEARCH_QUERY_MAX); longer text is cut by the box itself. */
const QUERY_MAX = 200;
const ALL_TAB = { users: 3, posts: 3, aiMedia: 6 } as const;

const TABS = ['all', 'users', 'posts', 'tags', 'media'] as const;
type Tab = (typeof TABS)[number];

function tabOf(value: string | null): Tab {
  return TABS.find((t) => t === value) ?? 'all';
}

/** The search's URL parameters: the query, and the tab unless it is All. */
function searchParams(q: string, tab: Tab): Record<string, string> {
  return { ...(q ? { q } : {}), ...(tab !== 'all' ? { tab } : {}) };
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="px-6 py-10 text-center text-sm text-muted-foreground">{children}</p>;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="space-y-3">
      <h2 className="text-sm font-semibold text-muted-foreground">{title}</h2>
      {children}
    </section>
  );
}

function UserList({ users }: { users: SearchAnswer['users'] }) {
  return (
    <div className="grid gap-3">
      {users.map((u) => (
        <UserResult key={u.id} user={u} />
      ))}
    </div>
  );
}

function PostListResults({ posts }: { posts: SearchAnswer['posts'] }) {
  return (
    <div className="grid gap-3">
      {posts.map((p) => (
        <PostResult key={p.id} post={p} />
      ))}
    </div>
  );
}

function MediaGrid({ media }: { media: SearchAnswer['aiMedia'] }) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      {media.map((m) => (
        <MediaResult key={m.id} media={m} />
      ))}
    </div>
  );
}

function Results({
  answer,
  tags,
  q,
  suggested,
  tab,
  onTab,
}: {
  answer: SearchAnswer;
  /** The tags starting with the query (none for suggestions). */
  tags: TagMatch[];
  q: string;
  suggested: boolean;
  tab: Tab;
  onTab: (tab: Tab) => void;
}) {
  const { t } = useLingui();
  const nothing = answer.users.length + answer.posts.length + answer.aiMedia.length + tags.length === 0;
  return (
    // Controlled from the URL: the tabs may be remounted (a new query shows "Searching..." first),
    // and the chosen one must survive that.
    <Tabs
      label={t`Result kinds`}
      variant="pill"
      value={tab}
      onValueChange={onTab}
      items={[
        {
          value: 'all',
          label: t`All`,
          panelClassName: 'space-y-6',
          panel: nothing ? (
            <Empty>
              {suggested ? <Trans>No suggestions available</Trans> : <Trans>No results found</Trans>}
            </Empty>
          ) : (
            <>
              {answer.users.length > 0 && (
                <Section title={t`Users`}>
                  <UserList users={answer.users.slice(0, ALL_TAB.users)} />
                </Section>
              )}
              {tags.length > 0 && (
                <Section title={t`Tags`}>
                  <TagMatches tags={tags} q={q} />
                </Section>
              )}
              {answer.posts.length > 0 && (
                <Section title={t`Posts`}>
                  <PostListResults posts={answer.posts.slice(0, ALL_TAB.posts)} />
                </Section>
              )}
              {answer.aiMedia.length > 0 && (
                <Section title={t`AI Media`}>
                  <MediaGrid media={answer.aiMedia.slice(0, ALL_TAB.aiMedia)} />
                </Section>
              )}
            </>
          ),
        },
        {
          value: 'users',
          label: t`Users`,
          panel: answer.users.length ? (
            <UserList users={answer.users} />
          ) : (
            <Empty>
              <Trans>No users found</Trans>
            </Empty>
          ),
        },
        {
          value: 'posts',
          label: t`Posts`,
          panel: answer.posts.length ? (
            <PostListResults posts={answer.posts} />
          ) : (
            <Empty>
              <Trans>No posts found</Trans>
            </Empty>
          ),
        },
        {
          value: 'tags',
          label: t`Tags`,
          panel: tags.length ? (
            <TagMatches tags={tags} q={q} />
          ) : (
            <Empty>
              <Trans>No tags found</Trans>
            </Empty>
          ),
        },
        {
          value: 'media',
          label: t`AI Media`,
          panel: answer.aiMedia.length ? (
            <MediaGrid media={answer.aiMedia} />
          ) : (
            <Empty>
              <Trans>No AI media found</Trans>
            </Empty>
          ),
        },
      ]}
    />
  );
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function SearchView() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const urlQuery = params.get('q') ?? '';
  const tab = tabOf(params.get('tab'));
  const [text, setText] = useState(urlQuery);
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const inputRef = useRef<HTMLInputElement>(null);
  // Read-only until the server's page is hydrated: what is typed before would be lost.
  const hydrated = useHydrated();

  // Back / Forward (or a link) changed the URL: the box follows.
  const lastUrlQuery = useRef(urlQuery);
  useEffect(() => {
    if (urlQuery !== lastUrlQuery.current) {
      lastUrlQuery.current = urlQuery;
      setText(urlQuery);
    }
  }, [urlQuery]);

  // The box settled on new text: the URL follows (a history entry per settled query).
  useEffect(() => {
    if (debounced === lastUrlQuery.current) return;
    lastUrlQuery.current = debounced;
    setParams((current) => searchParams(debounced, tabOf(current.get('tab'))));
  }, [debounced, setParams]);

  // Choosing a tab replaces the history entry: Back goes to the previous query, not tab.
  const chooseTab = (next: Tab) => setParams(searchParams(urlQuery, next), { replace: true });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === '/' && !isTypingTarget(event.target) && !event.metaKey && !event.ctrlKey) {
        event.preventDefault();
        inputRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const q = urlQuery.trim();
  const results = useSearchQuery(urlQuery);
  const suggestions = useSearchSuggestionsQuery(q === '');
  const active = q === '' ? suggestions : results;
  const tags = useTagMatches(q);

  const failed = active.isError ? active.error : null;
  useEffect(() => {
    if (failed) errorToast(t`Search failed`, failed, t`Please try again`);
  }, [failed, t]);

  return (
    <div className="space-y-5">
      <div className="relative">
        <SearchIcon
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 start-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <input
          ref={inputRef}
          type="search"
          aria-label={t`Search`}
          placeholder={t`Search users, posts and AI media`}
          maxLength={QUERY_MAX}
          value={text}
          readOnly={!hydrated}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              setText('');
            }
          }}
          className="h-11 w-full rounded-lg border bg-background pe-10 ps-9 text-base shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-search-cancel-button]:hidden"
        />
        {text && (
          <button
            type="button"
            aria-label={t`Clear search`}
            onClick={() => {
              setText('');
              inputRef.current?.focus();
            }}
            className="absolute top-1/2 end-2 inline-flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-muted-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        )}
      </div>

      {q === '' && (
        <h2 className="text-lg font-semibold">
          <Trans>Suggested for you</Trans>
        </h2>
      )}

      {active.isPending && active.fetchStatus !== 'idle' ? (
        <ListLoading>
          <Trans>Searching...</Trans>
        </ListLoading>
      ) : active.data ? (
        // Drawn in a background render, not in the query store's update that brought the answer
        // (use-drawn-after-mount.ts). The side column goes below the suggestions, and once they
        // are there: it loads on its own, and arriving above them it pushed them down the screen
        // (Lighthouse's layout shift 0.39 on a phone).
        <DrawnAfterMount
          fallback={
            <ListLoading>
              <Trans>Searching...</Trans>
            </ListLoading>
          }
        >
          <div aria-busy={active.isFetching} className={active.isPlaceholderData ? 'opacity-70' : undefined}>
            <Results
              answer={active.data}
              tags={q === '' ? [] : tags}
              q={q}
              suggested={q === ''}
              tab={tab}
              onTab={chooseTab}
            />
          </div>
          {q === '' && <NarrowSideColumn />}
        </DrawnAfterMount>
      ) : active.isError ? (
        <>
          <Empty>
            {q === '' ? <Trans>No suggestions available</Trans> : <Trans>No results found</Trans>}
          </Empty>
          {q === '' && <NarrowSideColumn />}
        </>
      ) : null}
    </div>
  );
}
