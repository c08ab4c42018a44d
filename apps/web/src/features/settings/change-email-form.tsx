/**
 * 'Change Email' (docs/web.md, "Settings"), in two steps. Step 1 takes the new email and the
 * current password and asks the server to mail a 6-digit code to the new address; nothing changes
 * yet. Step 2 takes that code; only then is the new address the account's (and every other
 * session is logged out). "Use a different address" goes back to step 1; a new request replaces
 * the code sent before.
 */
import { changeEmailInput, confirmEmailChangeInput, RESET_CODE_LENGTH } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { PasswordField } from '../../components/form/password-field';
import { TextField } from '../../components/form/text-field';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { serverFieldErrors } from '../../lib/trpc';
import { useChangeEmailMutation, useConfirmEmailChangeMutation, useOwnEmail } from './queries';
import { SettingsCard } from './settings-card';

export function ChangeEmailForm() {
  const { t } = useLingui();
  // '' while unknown: a page rendered on the server leaves it out (entry-server.tsx).
  const currentEmail = useOwnEmail();
  // The address the code went to, while step 2 is shown.
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  return (
    <SettingsCard
      id="change-email-title"
      title={t`Change Email`}
      description={
        currentEmail
          ? t`Currently ${currentEmail}. We send a code to the new address to confirm it.`
          : t`We send a code to the new address to confirm it.`
      }
    >
      {/* A new round remounts the fields: cleared values and no stale 'required' messages. */}
      {pendingEmail === null ? (
        <RequestStep key={`request-${round}`} onSent={setPendingEmail} />
      ) : (
        <ConfirmStep
          key={`confirm-${round}`}
          pendingEmail={pendingEmail}
          onBack={() => setPendingEmail(null)}
          onChanged={() => {
            setPendingEmail(null);
            setRound((r) => r + 1);
          }}
        />
      )}
    </SettingsCard>
  );
}

function RequestStep({ onSent }: { onSent: (email: string) => void }) {
  const { t } = useLingui();
  const form = useZodForm(changeEmailInput, { email: '', password: '' });
  const request = useChangeEmailMutation({
    onSuccess: ({ message, pendingEmail }) => {
      toast({ title: t`Check your new email`, description: message });
      onSent(pendingEmail);
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast(t`Failed to change email`, error, t`Please try again.`);
    },
  });

  return (
    <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((data) => request.mutate(data))}>
      <TextField
        {...form.field('email')}
        label={t`New email`}
        type="email"
        autoComplete="email"
        inputMode="email"
        required
      />
      <PasswordField {...form.field('password')} label={t`Password`} purpose="current" required />
      <div>
        <Button type="submit" disabled={request.isPending} aria-busy={request.isPending}>
          {request.isPending ? <Spinner /> : null}
          <Trans>Send code</Trans>
        </Button>
      </div>
    </form>
  );
}

function ConfirmStep({
  pendingEmail,
  onBack,
  onChanged,
}: {
  pendingEmail: string;
  onBack: () => void;
  onChanged: () => void;
}) {
  const { t } = useLingui();
  const form = useZodForm(confirmEmailChangeInput, { code: '' });
  const confirm = useConfirmEmailChangeMutation({
    onSuccess: ({ user }) => {
      onChanged();
      const email = user.email;
      toast({
        title: t`Email changed successfully!`,
        description: t`Your email is now ${email}. Your other sessions were logged out.`,
      });
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast(t`Failed to confirm email`, error, t`Please try again.`);
    },
  });

  return (
    <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((data) => confirm.mutate(data))}>
      <p className="text-sm text-muted-foreground" role="status">
        <Trans>
          We sent a code to <span className="font-medium break-all text-foreground">{pendingEmail}</span>.
          Enter it to confirm the change. Until then your email stays as it is.
        </Trans>
      </p>
      <TextField
        {...form.field('code')}
        label={t`Confirmation code`}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={RESET_CODE_LENGTH}
        pattern="[0-9]*"
        className="tracking-[0.3em] tabular-nums"
        required
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row">
        <Button type="button" variant="outline" onClick={onBack} disabled={confirm.isPending}>
          <ArrowLeft aria-hidden="true" className="rtl:-scale-x-100" />
          <Trans>Use a different address</Trans>
        </Button>
        <Button type="submit" disabled={confirm.isPending} aria-busy={confirm.isPending}>
          {confirm.isPending ? <Spinner /> : null}
          <Trans>Confirm Email</Trans>
        </Button>
      </div>
    </form>
  );
}
