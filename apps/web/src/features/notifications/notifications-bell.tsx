/**
 * The header's notifications bell: unread badge (pushed live over the socket, polled every 30 s as
 * the fallback). From md up it opens a popover of the newest notifications with 'Mark all as
 * read' and a link to the notifications page; on a phone it opens the page (/notifications).
 * Opening a notification marks it read. Rendered for logged-in users only.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Bell } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { LazyMenu } from '../../components/ui/lazy-menu';
import { Spinner } from '../../components/ui/spinner';
import { useMediaQuery } from '../../lib/use-media-query';
import { useNotificationsLive, useUnreadNotifications } from './queries';

export { NOTIFICATIONS_POLL_MS, notificationTarget } from './queries';

// The popover's list loads with its first opening: the first page's script stays within budget.
const NotificationsPanel = lazy(() =>
  import('./notifications-panel').then((m) => ({ default: m.NotificationsPanel })),
);

function badgeText(count: number, formatNumber: (n: number) => string): string {
  return count > 99 ? `${formatNumber(99)}+` : formatNumber(count);
}

/**
 * The bell's face: its name as hidden text, the icon and the badge (the count for screen readers
 * is beside it: BellCount). Named from its content, not aria-label: with an aria-label, axe's
 * label-content-name-mismatch counts the badge's digits as visible text missing from the name.
 */
function BellFace({ count }: { count: number }) {
  const { i18n } = useLingui();
  return (
    <>
      <span className="sr-only">
        <Trans>Notifications</Trans>
      </span>
      <Bell aria-hidden="true" className="size-5" />
      {count > 0 ? (
        <span
          aria-hidden="true"
          data-testid="notifications-badge"
          className="absolute -top-0.5 -end-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-destructive px-1 dark:bg-red-700 text-[10px] leading-none font-semibold text-destructive-foreground ring-2 ring-background"
        >
          {badgeText(count, (n) => i18n.number(n))}
        </span>
      ) : null}
    </>
  );
}

/** The count, the bell's description: outside the bell, so it is not part of its name. */
function BellCount({ count, id }: { count: number; id: string }) {
  return (
    <span id={id} className="sr-only">
      {count === 0 ? (
        <Trans>No unread notifications</Trans>
      ) : (
        <Plural value={count} one="# unread" other="# unread" />
      )}
    </span>
  );
}

export function NotificationsBell() {
  const countId = useId();
  const wide = useMediaQuery('(min-width: 768px)', true);
  const unread = useUnreadNotifications();
  useNotificationsLive();
  const count = unread.data?.count ?? 0;
  if (!wide) {
    return (
      <>
        <Button
          asChild
          variant="ghost"
          size="icon"
          className="relative size-9 rounded-full aria-[current=page]:bg-accent"
        >
          <Link to="/notifications" aria-describedby={countId}>
            <BellFace count={count} />
          </Link>
        </Button>
        <BellCount count={count} id={countId} />
      </>
    );
  }
  return <BellPopover count={count} countId={countId} refetchCount={() => void unread.refetch()} />;
}

function BellPopover({
  count,
  countId,
  refetchCount,
}: {
  count: number;
  countId: string;
  refetchCount: () => void;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    // Opening shows the current state: the badge is fetched fresh (the panel asks for the list).
    if (next) refetchCount();
  };

  return (
    <>
      <LazyMenu
        kind="popover"
        open={open}
        onOpenChange={onOpenChange}
        trigger={
          <Button
            variant="ghost"
            size="icon"
            aria-describedby={countId}
            className="relative size-9 rounded-full data-[state=open]:bg-accent"
          >
            <BellFace count={count} />
          </Button>
        }
      >
        {({ Popover }) => (
          <Popover.Content
            align="end"
            sideOffset={8}
            collisionPadding={12}
            aria-label={t`Notifications list`}
            className="menu-content z-50 flex max-h-[min(32rem,calc(100dvh-6rem))] w-[22rem] max-w-[calc(100vw-1.5rem)] flex-col overflow-hidden rounded-xl border bg-popover text-popover-foreground shadow-xl"
          >
            <Suspense
              fallback={
                <p
                  role="status"
                  className="flex items-center justify-center gap-2 px-4 py-10 text-sm text-muted-foreground"
                >
                  <Spinner /> <Trans>Loading notifications...</Trans>
                </p>
              }
            >
              <NotificationsPanel count={count} close={() => setOpen(false)} />
            </Suspense>
          </Popover.Content>
        )}
      </LazyMenu>
      <BellCount count={count} id={countId} />
    </>
  );
}
