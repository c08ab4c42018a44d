/** 'Change Email' (docs/web.md, "Settings"): new email and the current password, both required. */
import { changeEmailInput } from '@cubes/api/schemas';
import { useState } from 'react';
import { TextField } from '../../components/form/text-field';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { serverFieldErrors, trpc } from '../../lib/trpc';
import { useSetSessionUser } from '../auth/auth-provider';
import { SettingsCard } from './settings-card';

export function ChangeEmailForm({ currentEmail }: { currentEmail: string }) {
  const [round, setRound] = useState(0);
  return (
    <SettingsCard
      id="change-email-title"
      title="Change Email"
      description={`Currently ${currentEmail}. Confirm the change with your password.`}
    >
      {/* A new round remounts the fields: cleared values and no stale 'required' messages. */}
      <ChangeEmailFields key={round} onChanged={() => setRound((r) => r + 1)} />
    </SettingsCard>
  );
}

function ChangeEmailFields({ onChanged }: { onChanged: () => void }) {
  const utils = trpc.useUtils();
  const setSessionUser = useSetSessionUser();
  const form = useZodForm(changeEmailInput, { email: '', password: '' });
  const change = trpc.settings.changeEmail.useMutation({
    onSuccess: ({ user }) => {
      setSessionUser(user);
      void utils.settings.get.invalidate();
      void utils.users.byUsername.invalidate();
      onChanged();
      toast({ title: 'Email changed successfully!', description: `Your email is now ${user.email}.` });
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast('Failed to change email', error, 'Please try again.');
    },
  });

  return (
    <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((data) => change.mutate(data))}>
      <TextField
        {...form.field('email')}
        label="New email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
      />
      <TextField
        {...form.field('password')}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
      />
      <div>
        <Button type="submit" disabled={change.isPending} aria-busy={change.isPending}>
          {change.isPending ? <Spinner /> : null}
          Change Email
        </Button>
      </div>
    </form>
  );
}
