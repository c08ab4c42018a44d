/**
 * The moderators' page: the open reports, oldest first, each with the reported item in context
 * and the actions on it, and the audit log of every action. To anyone who is not a moderator the
 * procedures answer 404, and so does the page: it shows the 404 page.
 */
import type { RouterOutputs } from '@cubes/api';
import { Flag, ScrollText, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
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

const KIND: Record<OpenReport['targetType'], string> = {
  post: 'Post',
  comment: 'Comment',
  message: 'Message',
  user: 'Member',
};

function formatUntil(until: Date | null): string {
  return until
    ? `until ${until.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`
    : 'for ever';
}

/** What `report` is about, in words for a sentence: "the post by @alice". */
function subjectOf(report: OpenReport): string {
  return report.targetType === 'user'
    ? `@${report.targetUser.username}`
    : `the ${report.targetType} by @${report.targetUser.username}`;
}

function ContextEntries({ report }: { report: OpenReport }) {
  if (report.context.length === 0) {
    return (
      <p className="text-sm text-muted-foreground italic">
        The item no longer exists: its author deleted it.
      </p>
    );
  }
  return (
    <ol className="grid gap-2" aria-label="Reported item in context">
      {report.context.map((entry) => (
        <li
          key={entry.id}
          className={cn(
            'grid min-w-0 gap-1 rounded-lg border px-3 py-2 text-sm',
            entry.reported ? 'border-destructive/50 bg-destructive/5' : 'bg-muted/40 text-muted-foreground',
          )}
        >
          <div className="flex min-w-0 flex-wrap items-baseline gap-x-1.5 text-xs text-muted-foreground">
            <span className="user-text min-w-0 font-semibold text-foreground">@{entry.username}</span>
            <span>{entry.kind === 'profile' ? 'profile' : entry.kind}</span>
            <span aria-hidden="true">·</span>
            <RelativeTime date={entry.createdAt} />
            {entry.reported ? <span className="font-medium text-destructive">Reported</span> : null}
            {entry.removed ? (
              <span className="rounded bg-muted px-1.5 py-0.5 font-medium text-foreground">Removed</span>
            ) : null}
          </div>
          {entry.content ? <UserText text={entry.content} /> : <span className="italic">(no text)</span>}
          {entry.imageUrl && entry.kind === 'post' ? (
            <img
              src={thumbnailUrl(entry.imageUrl)}
              alt={`Attached to the post by @${entry.username}`}
              loading="lazy"
              className="mt-1 max-h-48 w-auto max-w-full rounded-md border object-contain"
            />
          ) : null}
        </li>
      ))}
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
  const target = report.targetUser;
  return (
    <Card className="grid gap-4 p-4 sm:p-5" aria-labelledby={`report-${report.id}`}>
      <header className="grid gap-1">
        <h3 id={`report-${report.id}`} className="user-text font-semibold">
          {KIND[report.targetType]} by{' '}
          <Link to={`/profile/${encodeURIComponent(target.username)}`} className="hover:underline">
            @{target.username}
          </Link>
        </h3>
        <p className="user-text text-sm text-muted-foreground">
          Reported by @{report.reporter.username} <RelativeTime date={report.createdAt} />
          {report.openReportsOnItem > 1 ? ` · ${report.openReportsOnItem} open reports on this item` : ''}
        </p>
        {target.suspension ? (
          <p className="text-sm font-medium text-destructive">
            @{target.username} is suspended {formatUntil(target.suspension.until)}
          </p>
        ) : null}
      </header>
      <blockquote className="user-text border-l-4 border-primary/50 pl-3 text-sm">
        <span className="sr-only">Reason: </span>
        <UserText text={report.reason} />
      </blockquote>
      <ContextEntries report={report} />
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => onAction('dismiss')}>
          Dismiss
        </Button>
        {report.targetType !== 'user' ? (
          <Button variant="destructive" size="sm" onClick={() => onAction('remove')}>
            Remove {report.targetType}
          </Button>
        ) : null}
        {target.suspension ? null : (
          <Button variant="destructive" size="sm" onClick={() => onAction('suspend')}>
            <span className="user-text">Suspend @{target.username}</span>
          </Button>
        )}
      </div>
    </Card>
  );
}

function logSentence(entry: LogEntry): string {
  const kind = entry.targetType === 'user' ? 'member' : entry.targetType;
  switch (entry.action) {
    case 'dismiss':
      return `dismissed a report on a ${kind} of @${entry.targetUsername}`;
    case 'remove':
      return `removed a ${kind} of @${entry.targetUsername}`;
    case 'suspend':
      return `suspended @${entry.targetUsername} ${formatUntil(entry.suspendedUntil)}`;
    case 'unsuspend':
      return `lifted the suspension of @${entry.targetUsername}`;
  }
}

function AuditLog({ onLift }: { onLift: (entry: LogEntry) => void }) {
  const log = useModerationLogQuery();
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="moderation-log" className="grid gap-3">
      <h2 id="moderation-log" className="flex items-center gap-2 text-lg font-semibold">
        <ScrollText aria-hidden="true" className="size-5 text-primary" /> Audit log
      </h2>
      {log.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading the audit log...
        </p>
      ) : log.isError ? (
        <p className="text-sm text-destructive">Could not load the audit log.</p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">No moderation actions yet.</p>
      ) : (
        <Card className="divide-y">
          <ol aria-label="Moderation actions, newest first">
            {entries.map((entry) => (
              <li key={entry.id} className="grid min-w-0 gap-0.5 px-4 py-3 text-sm">
                <span className="user-text">
                  <span className="font-semibold">@{entry.moderatorUsername}</span> {logSentence(entry)}
                </span>
                {entry.note ? <UserText text={entry.note} className="text-muted-foreground" /> : null}
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <time dateTime={entry.createdAt.toISOString()} className="text-xs text-muted-foreground">
                    {entry.createdAt.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
                  </time>
                  {/* Offered while the suspension may last; the server answers 409 if it was lifted already. */}
                  {entry.action === 'suspend' &&
                  (!entry.suspendedUntil || entry.suspendedUntil > new Date()) ? (
                    <Button variant="outline" size="sm" className="h-7 text-xs" onClick={() => onLift(entry)}>
                      <span className="user-text">Lift suspension of @{entry.targetUsername}</span>
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
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
            Show older actions
          </Button>
        </div>
      ) : null}
    </section>
  );
}

export function ModerationView() {
  const reports = useOpenReportsQuery();
  const [acting, setActing] = useState<{ report: OpenReport; kind: ModerationActionKind } | null>(null);
  const [lifting, setLifting] = useState<LogEntry | null>(null);

  const done = (message: string) => {
    toast({ title: message });
    setActing(null);
    setLifting(null);
  };
  const dismiss = useDismissReportMutation({
    onSuccess: () => done('Report dismissed'),
    onError: (e) => errorToast('Failed to dismiss the report', e),
  });
  const remove = useRemoveContentMutation({
    onSuccess: () => done('Content removed'),
    onError: (e) => errorToast('Failed to remove the content', e),
  });
  const suspend = useSuspendMemberMutation({
    onSuccess: () => done('Member suspended'),
    onError: (e) => errorToast('Failed to suspend the member', e),
  });
  const unsuspend = useLiftSuspensionMutation({
    onSuccess: () => done('Suspension lifted'),
    onError: (e) => errorToast('Failed to lift the suspension', e),
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
          <ShieldCheck aria-hidden="true" className="size-6 text-primary" /> Moderation
        </h1>
        <p className="text-sm text-muted-foreground">
          Reports from members, oldest first. Every action is recorded in the audit log below.
        </p>
      </div>

      <section aria-labelledby="moderation-reports" className="grid gap-3">
        <h2 id="moderation-reports" className="flex items-center gap-2 text-lg font-semibold">
          <Flag aria-hidden="true" className="size-5 text-primary" /> Open reports
        </h2>
        {reports.isError ? (
          <Card className="grid justify-items-start gap-3 p-5 text-sm">
            <p className="text-destructive">Could not load the reports.</p>
            <Button variant="outline" size="sm" onClick={() => void reports.refetch()}>
              Try again
            </Button>
          </Card>
        ) : items.length === 0 ? (
          <Card className="p-8 text-center text-sm text-muted-foreground">No open reports. All clear.</Card>
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
              Show more reports
            </Button>
          </div>
        ) : null}
      </section>

      <AuditLog onLift={setLifting} />

      {acting ? (
        <ActionDialog
          key={`${acting.report.id}-${acting.kind}`}
          kind={acting.kind}
          subject={
            acting.kind === 'suspend' ? `@${acting.report.targetUser.username}` : subjectOf(acting.report)
          }
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
          subject={`@${lifting.targetUsername}`}
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
