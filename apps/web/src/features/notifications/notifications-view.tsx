/**
 * The notifications page (/notifications; the bell opens it on a phone, its popover links to it):
 * every notification or mentions only (the filter is in the URL, `?filter=mentions`), newest
 * first, paged through the server's keyset cursor, with 'Mark all as read'. New ones arrive live
 * (the bell's subscription reads the lists again); opening one marks it read.
 */
import type { NotificationFilter } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { AtSign, Bell, CheckCheck } from 'lucide-react';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ListFailed, ListLoading } from '../../components/list-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { Tabs } from '../../components/ui/tabs';
import {
  useMarkAllRead,
  useNotificationsPageQuery,
  useOpenNotification,
  useReadNotification,
} from './list-queries';
import { NotificationRow } from './notification-item';
import { useUnreadNotifications } from './queries';

export const NOTIFICATIONS_PAGE_SIZE = 20;

/** The filter the URL names; anything else is all. */
export function filterOf(value: string | null): NotificationFilter {
  return value === 'mentions' ? 'mentions' : 'all';
}

export function NotificationsView() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params.get('filter'));
  const unread = useUnreadNotifications();
  const markAll = useMarkAllRead();
  const choose = (next: NotificationFilter) => {
    setParams(next === 'all' ? {} : { filter: next }, { replace: true });
  };
  return (
    <div className="mx-auto grid w-full max-w-2xl gap-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight">
          <Trans>Notifications</Trans>
        </h1>
        <Button
          variant="outline"
          size="sm"
          disabled={(unread.data?.count ?? 0) === 0 || markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          {markAll.isPending ? <Spinner /> : <CheckCheck aria-hidden="true" />}
          <Trans>Mark all as read</Trans>
        </Button>
      </div>
      <Tabs
        label={t`Show`}
        value={filter}
        onValueChange={choose}
        items={[
          { value: 'all', label: t`All`, panel: <NotificationList filter="all" /> },
          { value: 'mentions', label: t`Mentions`, panel: <NotificationList filter="mentions" /> },
        ]}
      />
    </div>
  );
}

function NotificationList({ filter }: { filter: NotificationFilter }) {
  const { t } = useLingui();
  const page = useNotificationsPageQuery(filter, NOTIFICATIONS_PAGE_SIZE);
  const openItem = useOpenNotification();
  const readItem = useReadNotification();
  const items = useMemo(() => page.data?.pages.flatMap((p) => p.items) ?? [], [page.data]);

  if (page.isPending)
    return (
      <ListLoading>
        <Trans>Loading notifications...</Trans>
      </ListLoading>
    );
  if (page.isError) {
    return (
      <ListFailed onRetry={() => void page.refetch()}>
        <Trans>Could not load notifications.</Trans>
      </ListFailed>
    );
  }
  if (items.length === 0) {
    return (
      <Card className="flex flex-col items-center gap-2 px-6 py-12 text-center text-sm text-muted-foreground">
        {filter === 'mentions' ? (
          <>
            <AtSign aria-hidden="true" className="size-6 opacity-60" />
            <span className="font-medium text-foreground">
              <Trans>No mentions yet</Trans>
            </span>
            <span>
              <Trans>When someone writes your @username in a post or comment, it shows up here.</Trans>
            </span>
          </>
        ) : (
          <>
            <Bell aria-hidden="true" className="size-6 opacity-60" />
            <span className="font-medium text-foreground">
              <Trans>No notifications yet</Trans>
            </span>
            <span>
              <Trans>Likes, comments, follows and mentions show up here.</Trans>
            </span>
          </>
        )}
      </Card>
    );
  }
  return (
    <div className="grid gap-3">
      <Card className="overflow-hidden p-0">
        <ul aria-label={filter === 'mentions' ? t`Mentions` : t`Notifications`} className="divide-y">
          {items.map((item) => (
            // Keyed by group: a like joining a group updates its row in place.
            <li key={item.groupKey}>
              <NotificationRow item={item} onOpen={openItem} onRead={readItem} />
            </li>
          ))}
        </ul>
      </Card>
      {page.hasNextPage ? (
        <div className="flex justify-center">
          <Button
            variant="outline"
            size="sm"
            disabled={page.isFetchingNextPage}
            onClick={() => void page.fetchNextPage()}
          >
            {page.isFetchingNextPage ? <Spinner /> : null}
            <Trans>Load more</Trans>
          </Button>
        </div>
      ) : null}
    </div>
  );
}
