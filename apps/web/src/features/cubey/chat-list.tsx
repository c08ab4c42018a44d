/**
 * The member's chats beside the conversation: New Chat, a search box (words in titles and
 * messages, searched by the server as post search is), and the list, most recently active first.
 * While a search is typed, its results (each with the piece of message that matched) take the
 * list's place.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { MessageSquarePlus, Search, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useChatSearchQuery } from './queries';

type Session = RouterOutputs['cubey']['sessions'][number];
type Hit = RouterOutputs['cubey']['search'][number];

/** What the list needs of the sessions query. */
interface SessionsQuery {
  data: Session[] | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

const SEARCH_DELAY_MS = 250;

export function ChatList({
  sessions,
  currentId,
  onChoose,
  onNew,
  newDisabled,
}: {
  sessions: SessionsQuery;
  currentId: string | null;
  onChoose: (id: string) => void;
  onNew: () => void;
  newDisabled: boolean;
}) {
  const [query, setQuery] = useState('');
  const debounced = useDebouncedValue(query.trim(), SEARCH_DELAY_MS);
  const searching = query.trim().length > 0;
  const results = useChatSearchQuery(debounced);
  const { t } = useLingui();

  return (
    <nav aria-label={t`Chats`} className="grid min-w-0 content-start gap-2">
      <Button variant="outline" onClick={onNew} disabled={newDisabled}>
        <MessageSquarePlus aria-hidden="true" /> <Trans>New Chat</Trans>
      </Button>
      <div className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute start-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          aria-label={t`Search your chats`}
          placeholder={t`Search chats`}
          value={query}
          maxLength={200}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setQuery('');
          }}
          className="h-9 ps-8 pe-8 text-sm [&::-webkit-search-cancel-button]:appearance-none"
        />
        {query ? (
          <button
            type="button"
            aria-label={t`Clear the search`}
            onClick={() => setQuery('')}
            className="absolute end-1.5 top-1/2 -translate-y-1/2 rounded p-1 text-muted-foreground hover:bg-accent"
          >
            <X aria-hidden="true" className="size-3.5" />
          </button>
        ) : null}
      </div>
      {searching ? (
        <SearchResults
          results={results}
          pending={debounced !== query.trim() || results.isPending}
          onChoose={(id) => {
            onChoose(id);
            setQuery('');
          }}
        />
      ) : sessions.isPending ? (
        <p className="text-sm text-muted-foreground">
          <Trans>Loading chats...</Trans>
        </p>
      ) : sessions.isError ? (
        <p className="text-sm text-destructive">
          <Trans>Failed to load your chats.</Trans>{' '}
          <button type="button" className="underline" onClick={() => void sessions.refetch()}>
            <Trans>Retry</Trans>
          </button>
        </p>
      ) : !sessions.data || sessions.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>No chats yet.</Trans>
        </p>
      ) : (
        <ul className="flex gap-2 overflow-x-auto pb-1 md:grid md:max-h-[28rem] md:overflow-y-auto">
          {sessions.data.map((s) => (
            <li key={s.id} className="min-w-0 shrink-0 md:shrink">
              <ChatButton session={s} current={s.id === currentId} onChoose={onChoose} />
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

function ChatButton({
  session,
  current,
  onChoose,
  snippet,
}: {
  session: Pick<Session, 'id' | 'title'>;
  current: boolean;
  onChoose: (id: string) => void;
  snippet?: string | null;
}) {
  return (
    <button
      type="button"
      onClick={() => onChoose(session.id)}
      aria-current={current ? 'true' : undefined}
      className={cn(
        'user-text grid w-44 rounded-md px-3 py-2 text-start text-sm hover:bg-accent md:w-full',
        current && 'bg-accent font-medium',
      )}
      title={session.title}
    >
      <span className="truncate">{session.title}</span>
      {snippet ? (
        <span className="line-clamp-2 text-xs font-normal text-muted-foreground">{snippet}</span>
      ) : null}
    </button>
  );
}

function SearchResults({
  results,
  pending,
  onChoose,
}: {
  results: { data: Hit[] | undefined; isError: boolean };
  pending: boolean;
  onChoose: (id: string) => void;
}) {
  const { t } = useLingui();
  if (results.isError)
    return (
      <p className="text-sm text-destructive">
        <Trans>The search failed. Try again.</Trans>
      </p>
    );
  if (pending && !results.data)
    return (
      <p className="text-sm text-muted-foreground">
        <Trans>Searching...</Trans>
      </p>
    );
  const hits = results.data ?? [];
  const count = hits.length;
  return (
    <div className="grid gap-1">
      <p role="status" className="text-xs text-muted-foreground">
        {count === 0 ? t`No chat matches` : t`${plural(count, { one: '# chat', other: '# chats' })}`}
      </p>
      {hits.length > 0 ? (
        <ul
          aria-label={t`Matching chats`}
          className="flex gap-2 overflow-x-auto pb-1 md:grid md:max-h-[28rem] md:overflow-y-auto"
        >
          {hits.map((hit) => (
            <li key={hit.id} className="min-w-0 shrink-0 md:shrink">
              <ChatButton session={hit} current={false} onChoose={onChoose} snippet={hit.snippet} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
