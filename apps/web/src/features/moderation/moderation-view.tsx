/**
 * The moderators' page: the open reports, oldest first, each with the reported item in context
 * and the actions on it, and the audit log of every action. To anyone who is not a moderator the
 * procedures answer 404, and so does the page: it shows the 404 page.
 */
import type { RouterOutputs } from '@cubes/api';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Flag, ScrollText, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Handle } from '../../components/handle';
import { RelativeTime } from '../../components/relative-time';
import { PageLoading } from '../../components/shell/page-loading';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { UserText } from '../../components/user-text';
import { cn } from '../../lib/cn';
import { errorCode } from '../../lib/error-message';
import { errorToast } from '../../lib/error-toast';
import NotFoundPage from '../../routes/not-found';
import { thumbnailUrl } from '../uploads/image-paths';
import { ActionDialog, type ModerationActionKind } from './action-dialog';
import {
  useDismissReportMutation,
  useLiftSuspensionMutation,
  useModerationLogQuery,
  useOpenReportsQuery,
  useRemoveContentMutation,
  useSuspendMemberMutation,
} from './queries';

type OpenReport = RouterOutputs['moderation']['reports']['items'][number];
type LogEntry = RouterOutputs['moderation']['log']['items'][number];

/** What a context entry is, beside its author. */
const ENTRY_KIND: Record<OpenReport['context'][number]['kind'], MessageDescriptor> = {
  post: msg`post`,
  comment: msg`comment`,
  message: msg`message`,
  profile: msg`profile`,
};

/** The remove button of each kind of item (a member is suspended, not removed). */
const REMOVE: Record<Exclude<OpenReport['targetType'], 'user'>, MessageDescriptor> = {
  post: msg`Remove post`,
  comment: msg`Remove comment`,
  message: msg`Remove message`,
};

/** A date and time as the audit log shows it, in the app's language. */
function formatWhen(i18n: I18n, date: Date): string {
  return i18n.date(date, { dateStyle: 'medium', timeStyle: 'short' });
}

function ContextEntries({ report }: { report: OpenReport }) {
  const { i18n, t } = useLingui();
  if (report.context.length === 0) {
    return (
      <p className="text-sm text-muted-foreground italic">
        <Trans>The item no longer exists: its author deleted it.</Trans>
      </p>
    );
  }
  return (
    <ol className="grid gap-2" aria-label={t`Reported item in context`}>
      {report.context.map((entry) => {
        const username = entry.username;
        return (
          <li
            key={entry.id}
            className={cn(
              'grid min-w-0 gap-1 rounded-lg border px-3 py-2 text-sm',
              entry.reported ? 'border-destructive/50 bg-destructive/5' : 'bg-muted/40 text-muted-foreground',
            )}
          >
            <div className="flex min-w-0 flex-wrap items-baseline gap-x-1.5 text-xs text-muted-foreground">
              <Handle username={entry.username} className="user-text min-w-0 font-semibold text-foreground" />
              <span>{i18n._(ENTRY_KIND[entry.kind])}</span>
              <span aria-hidden="true">·</span>
              <RelativeTime date={entry.createdAt} />
              {entry.reported ? (
                <span className="font-medium text-destructive">
                  <Trans>Reported</Trans>
                </span>
              ) : null}
              {entry.removed ? (
                <span className="rounded bg-muted px-1.5 py-0.5 font-medium text-foreground">
                  <Trans>Removed</Trans>
                </span>
              ) : null}
            </div>
            {entry.content ? (
              <UserText text={entry.content} />
            ) : (
              <span className="italic">
                <Trans>(no text)</Trans>
              </span>
            )}
            {entry.imageUrl && entry.kind === 'post' ? (
              <img
                src={thumbnailUrl(entry.imageUrl)}
                alt={t`Attached to the post by @${username}`}
                loading="lazy"
                className="mt-1 max-h-48 w-auto max-w-full rounded-md border object-contain"
              />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

function ReportCard({
  report,
  onAction,
}: {
  report: OpenReport;
  onAction: (kind: ModerationActionKind) => void;
}) {
  const { i18n } = useLingui();
  const target = report.targetUser;
  const username = target.username;
  const reporter = report.reporter.username;
  const openReports = report.openReportsOnItem;
  const profile = (
    <Link to={`/profile/${encodeURIComponent(username)}`} className="hover:underline">
      <Handle username={username} />
    </Link>
  );
  const until = target.suspension?.until ? formatWhen(i18n, target.suspension.until) : null;
  return (
    <Card className="grid gap-4 p-4 sm:p-5" aria-labelledby={`report-${report.id}`}>
      <header className="grid gap-1">
        <h3 id={`report-${report.id}`} className="user-text font-semibold">
          {report.targetType === 'post' ? (
            <Trans>Post by {profile}</Trans>
          ) : report.targetType === 'comment' ? (
            <Trans>Comment by {profile}</Trans>
          ) : report.targetType === 'message' ? (
            <Trans>Message by {profile}</Trans>
          ) : (
            <Trans>Member by {profile}</Trans>
          )}
        </h3>
        <p className="user-text text-sm text-muted-foreground">
          <Trans>
            Reported by @{reporter} <RelativeTime date={report.createdAt} />
          </Trans>
          {report.openReportsOnItem > 1 ? (
            <>
              {' · '}
              <Plural
                value={openReports}
                one="# open report on this item"
                other="# open reports on this item"
              />
            </>
          ) : null}
        </p>
        {target.suspension ? (
          <p className="text-sm font-medium text-destructive">
            {until ? (
              <Trans>
                @{username} is suspended until {until}
              </Trans>
            ) : (
              <Trans>@{username} is suspended for ever</Trans>
            )}
          </p>
        ) : null}
      </header>
      <blockquote className="user-text border-s-4 border-primary/50 ps-3 text-sm">
        <span className="sr-only">
          <Trans>Reason:</Trans>{' '}
        </span>
        <UserText text={report.reason} />
      </blockquote>
      <ContextEntries report={report} />
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => onAction('dismiss')}>
          <Trans>Dismiss</Trans>
        </Button>
        {report.targetType !== 'user' ? (
          <Button variant="destructive" size="sm" onClick={() => onAction('remove')}>
            {i18n._(REMOVE[report.targetType])}
          </Button>
        ) : null}
        {target.suspension ? null : (
          <Button variant="destructive" size="sm" onClick={() => onAction('suspend')}>
            <span className="user-text">
              <Trans>Suspend @{username}</Trans>
            </span>
          </Button>
        )}
      </div>
    </Card>
  );
}

/** What the moderator did, after their name: "dismissed a report on a post of @bob". */
function logSentence(i18n: I18n, entry: LogEntry): string {
  const username = entry.targetUsername;
  const kind = entry.targetType;
  switch (entry.action) {
    case 'dismiss':
      return kind === 'post'
        ? i18n._(msg`dismissed a report on a post of @${username}`)
        : kind === 'comment'
          ? i18n._(msg`dismissed a report on a comment of @${username}`)
          : kind === 'message'
            ? i18n._(msg`dismissed a report on a message of @${username}`)
            : i18n._(msg`dismissed a report on a member of @${username}`);
    case 'remove':
      return kind === 'post'
        ? i18n._(msg`removed a post of @${username}`)
        : kind === 'comment'
          ? i18n._(msg`removed a comment of @${username}`)
          : kind === 'message'
            ? i18n._(msg`removed a message of @${username}`)
            : i18n._(msg`removed a member of @${username}`);
    case 'suspend': {
      if (!entry.suspendedUntil) return i18n._(msg`suspended @${username} for ever`);
      const until = formatWhen(i18n, entry.suspendedUntil);
      return i18n._(msg`suspended @${username} until ${until}`);
    }
    case 'unsuspend':
      return i18n._(msg`lifted the suspension of @${username}`);
  }
}

function AuditLog({ onLift }: { onLift: (entry: LogEntry) => void }) {
  const { i18n, t } = useLingui();
  const log = useModerationLogQuery();
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="moderation-log" className="grid gap-3">
      <h2 id="moderation-log" className="flex items-center gap-2 text-lg font-semibold">
        <ScrollText aria-hidden="true" className="size-5 text-primary" /> <Trans>Audit log</Trans>
      </h2>
      {log.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> <Trans>Loading the audit log...</Trans>
        </p>
      ) : log.isError ? (
        <p className="text-sm text-destructive">
          <Trans>Could not load the audit log.</Trans>
        </p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>No moderation actions yet.</Trans>
        </p>
      ) : (
        <Card className="divide-y">
          <ol aria-label={t`Moderation actions, newest first`}>
            {entries.map((entry) => {
              const target = entry.targetUsername;
              return (
                <li key={entry.id} className="grid min-w-0 gap-0.5 px-4 py-3 text-sm">
                  <span className="user-text">
                    <Handle username={entry.moderatorUsername} className="font-semibold" />{' '}
                    {logSentence(i18n, entry)}
                  </span>
                  {entry.note ? <UserText text={entry.note} className="text-muted-foreground" /> : null}
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <time dateTime={entry.createdAt.toISOString()} className="text-xs text-muted-foreground">
                      {formatWhen(i18n, entry.createdAt)}
                    </time>
                    {/* Offered while the suspension may last; the server answers 409 if it was lifted already. */}
                    {entry.action === 'suspend' &&
                    (!entry.suspendedUntil || entry.suspendedUntil > new Date()) ? (
                      <Button
                        variant="outline"
                        size="sm"
                        className="h-7 text-xs"
                        onClick={() => onLift(entry)}
                      >
                        <span className="user-text">
                          <Trans>Lift suspension of @{target}</Trans>
                        </span>
                      </Button>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ol>
        </Card>
      )}
      {log.hasNextPage ? (
        <div>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => void log.fetchNextPage()}
            disabled={log.isFetchingNextPage}
          >
            {log.isFetchingNextPage ? <Spinner /> : null}
            <Trans>Show older actions</Trans>
          </Button>
        </div>
      ) : null}
    </section>
  );
}

export function ModerationView() {
  const { t } = useLingui();
  const reports = useOpenReportsQuery();
  const [acting, setActing] = useState<{ report: OpenReport; kind: ModerationActionKind } | null>(null);
  const [lifting, setLifting] = useState<LogEntry | null>(null);

  const done = (message: string) => {
    toast({ title: message });
    setActing(null);
    setLifting(null);
  };
  const dismiss = useDismissReportMutation({
    onSuccess: () => done(t`Report dismissed`),
    onError: (e) => errorToast(t`Failed to dismiss the report`, e, t`Please try again`),
  });
  const remove = useRemoveContentMutation({
    onSuccess: () => done(t`Content removed`),
    onError: (e) => errorToast(t`Failed to remove the content`, e, t`Please try again`),
  });
  const suspend = useSuspendMemberMutation({
    onSuccess: () => done(t`Member suspended`),
    onError: (e) => errorToast(t`Failed to suspend the member`, e, t`Please try again`),
  });
  const unsuspend = useLiftSuspensionMutation({
    onSuccess: () => done(t`Suspension lifted`),
    onError: (e) => errorToast(t`Failed to lift the suspension`, e, t`Please try again`),
  });

  if (reports.isError && errorCode(reports.error) === 'NOT_FOUND') return <NotFoundPage />;
  if (reports.isPending) return <PageLoading />;

  const items = reports.data?.pages.flatMap((p) => p.items) ?? [];
  const confirm = ({ reason, days }: { reason: string; days: number | null }) => {
    if (!acting) return;
    const { report, kind } = acting;
    if (kind === 'dismiss') dismiss.mutate({ reportId: report.id, ...(reason ? { note: reason } : {}) });
    else if (kind === 'remove') remove.mutate({ reportId: report.id, reason });
    else suspend.mutate({ userId: report.targetUser.id, reportId: report.id, days, reason });
  };

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <div className="grid gap-1">
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight">
          <ShieldCheck aria-hidden="true" className="size-6 text-primary" /> <Trans>Moderation</Trans>
        </h1>
        <p className="text-sm text-muted-foreground">
          <Trans>Reports from members, oldest first. Every action is recorded in the audit log below.</Trans>
        </p>
      </div>

      <section aria-labelledby="moderation-reports" className="grid gap-3">
        <h2 id="moderation-reports" className="flex items-center gap-2 text-lg font-semibold">
          <Flag aria-hidden="true" className="size-5 text-primary" /> <Trans>Open reports</Trans>
        </h2>
        {reports.isError ? (
          <Card className="grid justify-items-start gap-3 p-5 text-sm">
            <p className="text-destructive">
              <Trans>Could not load the reports.</Trans>
            </p>
            <Button variant="outline" size="sm" onClick={() => void reports.refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Card>
        ) : items.length === 0 ? (
          <Card className="p-8 text-center text-sm text-muted-foreground">
            <Trans>No open reports. All clear.</Trans>
          </Card>
        ) : (
          <div className="grid gap-4">
            {items.map((report) => (
              <ReportCard key={report.id} report={report} onAction={(kind) => setActing({ report, kind })} />
            ))}
          </div>
        )}
        {reports.hasNextPage ? (
          <div>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => void reports.fetchNextPage()}
              disabled={reports.isFetchingNextPage}
            >
              {reports.isFetchingNextPage ? <Spinner /> : null}
              <Trans>Show more reports</Trans>
            </Button>
          </div>
        ) : null}
      </section>

      <AuditLog onLift={setLifting} />

      {acting ? (
        <ActionDialog
          key={`${acting.report.id}-${acting.kind}`}
          kind={acting.kind}
          targetType={acting.report.targetType}
          username={acting.report.targetUser.username}
          pending={dismiss.isPending || remove.isPending || suspend.isPending}
          onConfirm={confirm}
          onOpenChange={(open) => {
            if (!open) setActing(null);
          }}
        />
      ) : null}
      {lifting ? (
        <ActionDialog
          kind="unsuspend"
          targetType="user"
          username={lifting.targetUsername}
          pending={unsuspend.isPending}
          onConfirm={({ reason }) => unsuspend.mutate({ userId: lifting.targetId, reason })}
          onOpenChange={(open) => {
            if (!open) setLifting(null);
          }}
        />
      ) : null}
    </div>
  );
}
