/**
 * The dialog of one moderation action: what will happen, the reason (required to remove, suspend
 * or lift a suspension; the author of removed content is told it; an optional note to dismiss)
 * and, to suspend, for how long. The reason is checked by the action's own input schema, through
 * useZodForm, so its messages are the server's.
 */
import {
  dismissReportInput,
  MODERATION_NOTE_MAX,
  removeContentInput,
  suspendUserInput,
  unsuspendUserInput,
} from '@cubes/api/schemas';
import { Dialog } from 'radix-ui';
import { useId, useState } from 'react';
import { z } from 'zod';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';

export type ModerationActionKind = 'dismiss' | 'remove' | 'suspend' | 'unsuspend';

/** How long a suspension lasts; null is for ever. */
export const SUSPENSION_CHOICES = [
  { label: '1 day', days: 1 },
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: '1 year', days: 365 },
  { label: 'For ever', days: null },
] as const;

const TEXT: Record<ModerationActionKind, { title: string; confirm: string; field: string }> = {
  dismiss: { title: 'Dismiss report', confirm: 'Dismiss', field: 'Note for the audit log (optional)' },
  remove: { title: 'Remove content', confirm: 'Remove', field: 'Reason (the author is told)' },
  suspend: { title: 'Suspend member', confirm: 'Suspend', field: 'Reason (for the audit log)' },
  unsuspend: { title: 'Lift suspension', confirm: 'Lift suspension', field: 'Reason (for the audit log)' },
};

/** The reason field of each action, as its procedure's input checks it (dismiss's note may be empty). */
const REASON_FORM: Record<ModerationActionKind, z.ZodType<{ reason: string }, { reason: string }>> = {
  dismiss: z.object({ reason: dismissReportInput.shape.note.unwrap() }),
  remove: removeContentInput.pick({ reason: true }),
  suspend: suspendUserInput.pick({ reason: true }),
  unsuspend: unsuspendUserInput.pick({ reason: true }),
};

export interface ActionDialogProps {
  kind: ModerationActionKind;
  /** what the action is about, in words: "the post by @alice" */
  subject: string;
  pending: boolean;
  onConfirm: (values: { reason: string; days: number | null }) => void;
  onOpenChange: (open: boolean) => void;
}

export function ActionDialog({ kind, subject, pending, onConfirm, onOpenChange }: ActionDialogProps) {
  const id = useId();
  const form = useZodForm(REASON_FORM[kind], { reason: '' });
  const [days, setDays] = useState<number | null>(7);
  const error = form.errors.reason;
  const reasonId = form.fieldId('reason');
  const text = TEXT[kind];

  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
          <div className="grid gap-1.5">
            <Dialog.Title className="text-lg font-semibold tracking-tight">{text.title}</Dialog.Title>
            <Dialog.Description className="user-text text-sm text-muted-foreground">
              {kind === 'dismiss'
                ? `Close the report on ${subject} without acting on it.`
                : kind === 'remove'
                  ? `Hide ${subject} from everyone. It is kept for the record, and its author is notified with your reason.`
                  : kind === 'suspend'
                    ? `${subject} will not be able to log in, and every session of theirs ends now.`
                    : `${subject} will be able to log in again.`}
            </Dialog.Description>
          </div>
          <form
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ reason }) => onConfirm({ reason, days }))}
            noValidate
          >
            {kind === 'suspend' ? (
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">For how long</legend>
                <div className="flex flex-wrap gap-2">
                  {SUSPENSION_CHOICES.map((choice) => (
                    <label
                      key={choice.label}
                      className="flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
                    >
                      <input
                        type="radio"
                        name={`${id}-days`}
                        className="sr-only"
                        checked={days === choice.days}
                        onChange={() => setDays(choice.days)}
                      />
                      {choice.label}
                    </label>
                  ))}
                </div>
              </fieldset>
            ) : null}
            <div className="grid gap-1.5">
              <label htmlFor={reasonId} className="text-sm font-medium">
                {text.field}
              </label>
              <Textarea
                id={reasonId}
                value={form.values.reason}
                rows={3}
                maxLength={MODERATION_NOTE_MAX}
                onChange={(e) => form.setValue('reason', e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
              {error ? (
                <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
                  {error}
                </p>
              ) : null}
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button
                type="submit"
                variant={kind === 'dismiss' || kind === 'unsuspend' ? 'default' : 'destructive'}
                disabled={pending}
              >
                {pending ? <Spinner /> : null}
                {text.confirm}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
