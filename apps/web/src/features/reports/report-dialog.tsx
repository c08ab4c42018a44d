/**
 * The reason dialog of a report: what is being reported, a reason of 1–1000 characters (the
 * server's own schema, through useZodForm), and Send. A repeat report is not an error to fix: it
 * says so and closes. A reason sent is cleared; one cancelled stays for the next opening.
 */
import { createReportInput, REPORT_REASON_MAX } from '@cubes/api/schemas';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../components/ui/use-toast';
import { errorCode } from '../../lib/error-message';
import { errorToast } from '../../lib/error-toast';
import { useCreateReportMutation } from './queries';
import type { ReportTarget } from './report-target';

export interface ReportDialogProps extends ReportTarget {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The dialog's title for each kind of item. */
const TITLES: Record<ReportTarget['targetType'], MessageDescriptor> = {
  post: msg`Report this post`,
  comment: msg`Report this comment`,
  message: msg`Report this message`,
  user: msg`Report this member`,
};

const reasonForm = createReportInput.pick({ reason: true });

export default function ReportDialog(props: ReportDialogProps) {
  // A new form after each report sent: the next one starts empty.
  const [sent, setSent] = useState(0);
  return <ReportForm key={sent} {...props} onSent={() => setSent((n) => n + 1)} />;
}

function ReportForm({
  targetType,
  targetId,
  subject,
  open,
  onOpenChange,
  onSent,
}: ReportDialogProps & { onSent: () => void }) {
  const { i18n, t } = useLingui();
  const form = useZodForm(reasonForm, { reason: '' });
  const fieldId = form.fieldId('reason');
  const reason = form.values.reason;
  const error = form.errors.reason;
  const create = useCreateReportMutation({
    onSuccess: () => {
      toast({ title: t`Report sent`, description: t`Thank you. A moderator will look at it.` });
      onSent();
      onOpenChange(false);
    },
    onError: (e) => {
      if (errorCode(e) === 'CONFLICT') {
        toast({ title: t`Already reported`, description: t`You have already reported this.` });
        onOpenChange(false);
        return;
      }
      errorToast(t`Failed to send report`, e, t`Please try again`);
    },
  });

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
          <div className="grid gap-1.5 pe-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">
              {i18n._(TITLES[targetType])}
            </Dialog.Title>
            <Dialog.Description className="user-text text-sm text-muted-foreground">
              <Trans>{subject}. Moderators see your report; the member you report does not.</Trans>
            </Dialog.Description>
          </div>
          <form
            className="grid gap-4"
            onSubmit={form.handleSubmit((data) => create.mutate({ targetType, targetId, ...data }))}
            noValidate
          >
            <div className="grid gap-1.5">
              <label htmlFor={fieldId} className="text-sm font-medium">
                <Trans>Why are you reporting this?</Trans>
              </label>
              <Textarea
                id={fieldId}
                value={reason}
                onChange={(e) => form.setValue('reason', e.target.value)}
                rows={4}
                maxLength={REPORT_REASON_MAX}
                placeholder={t`Spam, harassment, something else…`}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${fieldId}-hint${error ? ` ${fieldId}-error` : ''}`}
              />
              <div className="flex justify-between gap-2 text-xs">
                <span id={`${fieldId}-error`} className="text-destructive" role={error ? 'alert' : undefined}>
                  {error}
                </span>
                <span id={`${fieldId}-hint`} className="shrink-0 text-muted-foreground tabular-nums">
                  {i18n.number(reason.length, { useGrouping: false })}/
                  {i18n.number(REPORT_REASON_MAX, { useGrouping: false })}
                </span>
              </div>
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button type="button" variant="outline">
                  <Trans>Cancel</Trans>
                </Button>
              </Dialog.Close>
              <Button type="submit" variant="destructive" disabled={create.isPending}>
                {create.isPending ? <Spinner /> : null}
                <Trans>Send report</Trans>
              </Button>
            </div>
          </form>
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
