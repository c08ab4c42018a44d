/**
 * Settings → "Delete my account": a confirmation dialog that needs the password. On success the
 * server has ended every session; the page forgets this one and goes home.
 */
import { deleteAccountInput } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { Trash2, TriangleAlert } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { PasswordField } from '../../components/form/password-field';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { describeError, errorCode } from '../../lib/error-message';
import { errorToast } from '../../lib/error-toast';
import { serverFieldErrors } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';
import { SettingsCard } from '../settings/settings-card';
import { useDeleteAccountMutation } from './queries';

export function DeleteAccountCard() {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <SettingsCard
      id="delete-account-title"
      title={t`Delete my account`}
      description={t`Removes your profile, posts, comments, likes, follows, favourites, Cubey chats and uploads for good. Messages you sent stay with the people you sent them to, from “Deleted user”. Your username becomes free again after 30 days.`}
    >
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Trigger asChild>
          <Button variant="destructive">
            <Trash2 aria-hidden="true" />
            <Trans>Delete my account</Trans>
          </Button>
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
          <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
            <div className="grid gap-1.5">
              <Dialog.Title className="flex items-center gap-2 text-lg font-semibold tracking-tight">
                <TriangleAlert aria-hidden="true" className="size-5 text-destructive" />
                <Trans>Delete your account?</Trans>
              </Dialog.Title>
              <Dialog.Description className="text-sm text-muted-foreground">
                <Trans>
                  This cannot be undone. Everything you posted and uploaded is deleted, and you are logged out
                  everywhere. Download your data first if you want to keep it.
                </Trans>
              </Dialog.Description>
            </div>
            {/* Mounted only while open: a new opening starts with an empty password. */}
            {open ? <DeleteAccountForm onCancel={() => setOpen(false)} /> : null}
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </SettingsCard>
  );
}

function DeleteAccountForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useLingui();
  const { forgetSession } = useAuth();
  const form = useZodForm(deleteAccountInput, { password: '' });
  const remove = useDeleteAccountMutation({
    onSuccess: () => {
      toast({ title: t`Your account was deleted`, description: t`Thank you for being part of Cubes AI.` });
      forgetSession();
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      // A wrong password is a 400 without field issues: it still belongs under the field.
      if (!fields.password && errorCode(error) === 'BAD_REQUEST') {
        fields.password = describeError(error, t`Password is incorrect`);
      }
      form.setFieldErrors(fields);
      errorToast(t`Failed to delete account`, error, t`Please try again.`);
    },
  });

  return (
    <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((data) => remove.mutate(data))}>
      <PasswordField {...form.field('password')} label={t`Password`} purpose="current" required autoFocus />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onCancel} disabled={remove.isPending}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" variant="destructive" disabled={remove.isPending} aria-busy={remove.isPending}>
          {remove.isPending ? <Spinner /> : <Trash2 aria-hidden="true" />}
          <Trans>Delete my account for good</Trans>
        </Button>
      </div>
    </form>
  );
}
