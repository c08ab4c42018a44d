/**
 * The dialog of one moderation action: what will happen, the reason (required to remove, suspend
 * or lift a suspension; the author of removed content is told it; an optional note to dismiss)
 * and, to suspend, for how long. The reason is checked by the action's own input schema, through
 * useZodForm, so its messages are the server's.
 */

import type { RouterInputs } from '@cubes/api';
import {
  dismissReportInput,
  MODERATION_NOTE_MAX,
  removeContentInput,
  suspendUserInput,
  unsuspendUserInput,
} from '@cubes/api/schemas';
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from 'radix-ui';
import { useId, useState } from 'react';
import { z } from 'zod';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';

export type ModerationActionKind = 'dismiss' | 'remove' | 'suspend' | 'unsuspend';

/** How long a suspension lasts, in days; null is for ever (their labels: `suspensionLabel`). */
export const SUSPENSION_CHOICES = [1, 7, 30, 365, null] as const;

const TEXT: Record<
  ModerationActionKind,
  { title: MessageDescriptor; confirm: MessageDescriptor; field: MessageDescriptor }
> = {
  dismiss: {
    title: msg`Dismiss report`,
    confirm: msg`Dismiss`,
    field: msg`Note for the audit log (optional)`,
  },
  remove: { title: msg`Remove content`, confirm: msg`Remove`, field: msg`Reason (the author is told)` },
  suspend: { title: msg`Suspend member`, confirm: msg`Suspend`, field: msg`Reason (for the audit log)` },
  unsuspend: {
    title: msg`Lift suspension`,
    confirm: msg`Lift suspension`,
    field: msg`Reason (for the audit log)`,
  },
};

type TargetType = RouterInputs['reports']['create']['targetType'];

/** The reason field of each action, as its procedure's input checks it (dismiss's note may be empty). */
const REASON_FORM: Record<ModerationActionKind, z.ZodType<{ reason: string }, { reason: string }>> = {
  dismiss: z.object({ reason: dismissReportInput.shape.note.unwrap() }),
  remove: removeContentInput.pick({ reason: true }),
  suspend: suspendUserInput.pick({ reason: true }),
  unsuspend: unsuspendUserInput.pick({ reason: true }),
};

export interface ActionDialogProps {
  kind: ModerationActionKind;
  /** what the action is about: a post, comment or message of the member, or the member */
  targetType: TargetType;
  /** the member's username (the author of the item, or the member) */
  username: string;
  pending: boolean;
  onConfirm: (values: { reason: string; days: number | null }) => void;
  onOpenChange: (open: boolean) => void;
}

export function ActionDialog({
  kind,
  targetType,
  username,
  pending,
  onConfirm,
  onOpenChange,
}: ActionDialogProps) {
  const { i18n, t } = useLingui();
  const id = useId();
  const form = useZodForm(REASON_FORM[kind], { reason: '' });
  const [days, setDays] = useState<number | null>(7);
  const error = form.errors.reason;
  const reasonId = form.fieldId('reason');
  const text = TEXT[kind];
  const suspensionLabel = (days: number | null) => {
    if (days === null) return t`For ever`;
    const years = days / 365;
    return Number.isInteger(years)
      ? t`${plural(years, { one: '# year', other: '# years' })}`
      : t`${plural(days, { one: '# day', other: '# days' })}`;
  };
  // Whole sentences for each kind of item: their words (and grammar) differ from language to language.
  const description =
    kind === 'dismiss'
      ? targetType === 'post'
        ? t`Close the report on the post by @${username} without acting on it.`
        : targetType === 'comment'
          ? t`Close the report on the comment by @${username} without acting on it.`
          : targetType === 'message'
            ? t`Close the report on the message by @${username} without acting on it.`
            : t`Close the report on @${username} without acting on it.`
      : kind === 'remove'
        ? targetType === 'post'
          ? t`Hide the post by @${username} from everyone. It is kept for the record, and its author is notified with your reason.`
          : targetType === 'comment'
            ? t`Hide the comment by @${username} from everyone. It is kept for the record, and its author is notified with your reason.`
            : targetType === 'message'
              ? t`Hide the message by @${username} from everyone. It is kept for the record, and its author is notified with your reason.`
              : t`Hide @${username} from everyone. It is kept for the record, and its author is notified with your reason.`
        : kind === 'suspend'
          ? t`@${username} will not be able to log in, and every session of theirs ends now.`
          : t`@${username} will be able to log in again.`;

  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
          <div className="grid gap-1.5">
            <Dialog.Title className="text-lg font-semibold tracking-tight">{i18n._(text.title)}</Dialog.Title>
            <Dialog.Description className="user-text text-sm text-muted-foreground">
              {description}
            </Dialog.Description>
          </div>
          <form
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ reason }) => onConfirm({ reason, days }))}
            noValidate
          >
            {kind === 'suspend' ? (
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">
                  <Trans>For how long</Trans>
                </legend>
                <div className="flex flex-wrap gap-2">
                  {SUSPENSION_CHOICES.map((choice) => (
                    <label
                      key={String(choice)}
                      className="flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
                    >
                      <input
                        type="radio"
                        name={`${id}-days`}
                        className="sr-only"
                        checked={days === choice}
                        onChange={() => setDays(choice)}
                      />
                      {suspensionLabel(choice)}
                    </label>
                  ))}
                </div>
              </fieldset>
            ) : null}
            <div className="grid gap-1.5">
              <label htmlFor={reasonId} className="text-sm font-medium">
                {i18n._(text.field)}
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
                  <Trans>Cancel</Trans>
                </Button>
              </Dialog.Close>
              <Button
                type="submit"
                variant={kind === 'dismiss' || kind === 'unsuspend' ? 'default' : 'destructive'}
                disabled={pending}
              >
                {pending ? <Spinner /> : null}
                {i18n._(text.confirm)}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
