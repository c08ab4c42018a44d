/**
 * A list's loading and failed states, as every card list shows them (the feeds, a profile's
 * posts and tabs, a tag's page, bookmarks, the gallery): a card with a spinner and what is
 * loading, announced as a status; or a card saying what could not load, with Retry.
 */
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Button } from './ui/button';
import { Card } from './ui/card';
import { Spinner } from './ui/spinner';

/** "Loading posts...", with a spinner. */
export function ListLoading({ children }: { children: ReactNode }) {
  return (
    <Card
      role="status"
      className="flex items-center justify-center gap-2 px-6 py-12 text-sm text-muted-foreground"
    >
      <Spinner />
      {children}
    </Card>
  );
}

/** "Could not load posts." and a Retry button that runs `onRetry`. */
export function ListFailed({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center text-sm">
      <p className="text-muted-foreground">{children}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <Trans>Retry</Trans>
      </Button>
    </Card>
  );
}
