/**
 * 'Sessions' (docs/web.md, "Settings"): where you are logged in — the device (named by the
 * server from the browser's User-Agent), when each session began and was last seen, this device
 * first. Any other session can be ended, or all of them at once ("Log out everywhere else"); the
 * server closes their live connections on every instance.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { LogOut, Monitor } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { formatFullDate, formatRelativeTime } from '../../lib/relative-time';
import { useEndOtherSessionsMutation, useEndSessionMutation, useSessionsQuery } from './queries';
import { SettingsCard } from './settings-card';

type Session = RouterOutputs['sessions']['list']['sessions'][number];

export function SessionsCard() {
  const { t } = useLingui();
  return (
    <SettingsCard
      id="sessions-title"
      title={t`Sessions`}
      description={t`Where you are logged in. End a session you do not recognise.`}
    >
      <SessionList />
    </SettingsCard>
  );
}

function SessionList() {
  const { t } = useLingui();
  const sessions = useSessionsQuery();
  const endOthers = useEndOtherSessionsMutation({
    onSuccess: ({ ended }) => {
      toast({
        title: t`Logged out everywhere else`,
        description:
          ended === 0
            ? t`There were no other sessions.`
            : t`${plural(ended, { one: '# other session ended.', other: '# other sessions ended.' })}`,
      });
    },
    onError: (error) => errorToast(t`Failed to log out other sessions`, error, t`Please try again.`),
  });

  if (sessions.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner />
        <Trans>Loading sessions...</Trans>
      </p>
    );
  }
  if (sessions.isError) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-muted-foreground">
          <Trans>Could not load your sessions.</Trans>
        </p>
        <Button variant="outline" size="sm" onClick={() => void sessions.refetch()}>
          <Trans>Retry</Trans>
        </Button>
      </div>
    );
  }
  const list = sessions.data.sessions;
  const others = list.filter((s) => !s.current).length;
  return (
    <div className="grid gap-4">
      <ul className="grid gap-3" aria-label={t`Active sessions`}>
        {list.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      {others === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>You are not logged in anywhere else.</Trans>
        </p>
      ) : null}
      <div>
        <Button
          variant="outline"
          disabled={others === 0 || endOthers.isPending}
          aria-busy={endOthers.isPending}
          onClick={() => endOthers.mutate()}
        >
          {endOthers.isPending ? <Spinner /> : <LogOut aria-hidden="true" />}
          <Trans>Log out everywhere else</Trans>
        </Button>
      </div>
    </div>
  );
}

function SessionRow({ session }: { session: Session }) {
  const { t, i18n } = useLingui();
  const device = session.device;
  const end = useEndSessionMutation({
    onSuccess: () => {
      toast({ title: t`Session ended`, description: t`${device} is logged out.` });
    },
    onError: (error) => errorToast(t`Failed to end session`, error, t`Please try again.`),
  });
  const lastSeen = formatRelativeTime(session.lastSeenAt, Date.now(), i18n);
  const signedIn = formatRelativeTime(session.createdAt, Date.now(), i18n);
  return (
    <li className="flex items-center gap-3 rounded-md border p-3">
      <Monitor aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p className="user-text text-sm font-medium">
          {session.device}
          {session.current ? (
            <span className="ms-2 rounded-full bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary">
              <Trans>This device</Trans>
            </span>
          ) : null}
        </p>
        <p className="text-xs text-muted-foreground">
          {session.current ? (
            <Trans>Active now</Trans>
          ) : (
            <Trans>
              Last seen{' '}
              <time dateTime={session.lastSeenAt} title={formatFullDate(session.lastSeenAt, i18n)}>
                {lastSeen}
              </time>
            </Trans>
          )}
          {' · '}
          <Trans>
            Signed in{' '}
            <time dateTime={session.createdAt} title={formatFullDate(session.createdAt, i18n)}>
              {signedIn}
            </time>
          </Trans>
        </p>
      </div>
      {session.current ? null : (
        <Button
          variant="ghost"
          size="sm"
          disabled={end.isPending}
          aria-busy={end.isPending}
          aria-label={t`End session on ${device}`}
          onClick={() => end.mutate({ sessionId: session.id })}
        >
          {end.isPending ? <Spinner /> : null}
          <Trans>End</Trans>
        </Button>
      )}
    </li>
  );
}
