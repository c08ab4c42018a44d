/** 'Change Password' (docs/web.md, "Settings"): all three fields required, new and confirm must match. */
import { changePasswordInput } from '@cubes/api/schemas';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { PasswordField } from '../../components/form/password-field';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { i18n } from '../../lib/i18n';
import { serverFieldErrors } from '../../lib/trpc';
import { useChangePasswordMutation } from './queries';
import { SettingsCard } from './settings-card';

export const PASSWORDS_DO_NOT_MATCH = msg`Passwords do not match`;

const changePasswordForm = changePasswordInput
  .extend({ confirmPassword: changePasswordInput.shape.currentPassword })
  .refine((data) => data.newPassword === data.confirmPassword, {
    // Translated when the check runs, in the language active then.
    error: () => i18n._(PASSWORDS_DO_NOT_MATCH),
    path: ['confirmPassword'],
    // Report a mismatch even while another field still has a problem.
    when: () => true,
  });

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

function PasswordFields() {
  const [round, setRound] = useState(0);
  // A new round remounts the form: the simplest way to clear values, errors and the attempted flag.
  return <ChangePasswordFields key={round} onChanged={() => setRound((r) => r + 1)} />;
}

function ChangePasswordFields({ onChanged }: { onChanged: () => void }) {
  const { t } = useLingui();
  const form = useZodForm(changePasswordForm, EMPTY);
  const change = useChangePasswordMutation({
    onSuccess: () => {
      toast({
        title: t`Password changed successfully!`,
        description: t`Your other sessions were logged out.`,
      });
      onChanged();
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast(t`Failed to change password`, error, t`Please try again.`);
    },
  });
  const { currentPassword, newPassword, confirmPassword } = form.values;
  const filled = currentPassword !== '' && newPassword !== '' && confirmPassword !== '';

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit(({ currentPassword: current, newPassword: next }) =>
        change.mutate({ currentPassword: current, newPassword: next }),
      )}
    >
      <PasswordField {...form.field('currentPassword')} label={t`Current password`} purpose="current" />
      <PasswordField {...form.field('newPassword')} label={t`New password`} purpose="new" />
      <PasswordField {...form.field('confirmPassword')} label={t`Confirm new password`} purpose="confirm" />
      <div>
        <Button type="submit" disabled={!filled || change.isPending} aria-busy={change.isPending}>
          {change.isPending ? <Spinner /> : null}
          <Trans>Change Password</Trans>
        </Button>
      </div>
    </form>
  );
}

export function ChangePasswordForm() {
  const { t } = useLingui();
  return (
    <SettingsCard
      id="change-password-title"
      title={t`Change Password`}
      description={t`Changing it logs you out everywhere else.`}
    >
      <PasswordFields />
    </SettingsCard>
  );
}
