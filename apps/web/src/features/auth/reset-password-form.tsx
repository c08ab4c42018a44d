/**
 * The Reset tab (docs/web.md, "Password reset"): step 1 asks for the email and sends a 6-digit
 * code; step 2 takes the code and a new password, with Back to step 1. Success returns to step 1
 * with every field cleared.
 */
import { forgotPasswordInput, RESET_CODE_LENGTH, resetPasswordInput } from '@cubes/api/schemas';
import { msg } from '@lingui/core/macro';
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
import { useForgotPasswordMutation, useResetPasswordMutation } from './queries';

/** Translated where shown: `i18n._(GENERIC_RESET_ERROR)`. */
export const GENERIC_RESET_ERROR = msg`Something went wrong. Please try again.`;

const codeStepSchema = resetPasswordInput.pick({ code: true, newPassword: true });

function EmailStep({ initialEmail, onSent }: { initialEmail: string; onSent: (email: string) => void }) {
  const { i18n, t } = useLingui();
  const form = useZodForm(forgotPasswordInput, { email: initialEmail });
  const send = useForgotPasswordMutation({
    onSuccess: (_answer, { email }) => {
      toast({ title: t`Reset code sent`, description: t`Check your email for a 6-digit code.` });
      onSent(email);
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast(t`Error`, error, i18n._(GENERIC_RESET_ERROR));
    },
  });
  return (
    <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((data) => send.mutate(data))}>
      <p className="text-sm text-muted-foreground">
        <Trans>Enter the email of your account and we will send you a 6{'\u2011'}digit code.</Trans>
      </p>
      <TextField
        {...form.field('email')}
        label={t`Email`}
        type="email"
        autoComplete="email"
        inputMode="email"
      />
      <Button type="submit" className="mt-2 w-full" disabled={send.isPending} aria-busy={send.isPending}>
        {send.isPending ? <Spinner /> : null}
        <Trans>Send reset code</Trans>
      </Button>
    </form>
  );
}

function CodeStep({ email, onBack, onDone }: { email: string; onBack: () => void; onDone: () => void }) {
  const { i18n, t } = useLingui();
  const form = useZodForm(codeStepSchema, { code: '', newPassword: '' });
  const reset = useResetPasswordMutation({
    onSuccess: () => {
      toast({
        title: t`Password reset successfully`,
        description: t`You can now log in with your new password.`,
      });
      onDone();
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast(t`Reset failed`, error, i18n._(GENERIC_RESET_ERROR));
    },
  });
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit((data) => reset.mutate({ email, ...data }))}
    >
      <p className="text-sm text-muted-foreground">
        <Trans>
          Enter the code we sent to <span className="font-medium break-all text-foreground">{email}</span> and
          choose a new password.
        </Trans>
      </p>
      <TextField
        {...form.field('code')}
        label={t`Code`}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={RESET_CODE_LENGTH}
        pattern="[0-9]*"
        className="tracking-[0.3em] tabular-nums"
      />
      <PasswordField {...form.field('newPassword')} label={t`New password`} purpose="new" />
      <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row">
        <Button
          type="button"
          variant="outline"
          className="sm:flex-1"
          onClick={onBack}
          disabled={reset.isPending}
        >
          <ArrowLeft aria-hidden="true" className="rtl:-scale-x-100" />
          <Trans>Back</Trans>
        </Button>
        <Button type="submit" className="sm:flex-1" disabled={reset.isPending} aria-busy={reset.isPending}>
          {reset.isPending ? <Spinner /> : null}
          <Trans>Reset password</Trans>
        </Button>
      </div>
    </form>
  );
}

export function ResetPasswordForm() {
  const { t } = useLingui();
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  // Bumped after a successful reset: remounting the steps clears every field and message.
  const [round, setRound] = useState(0);

  return (
    <div className="grid gap-4">
      <h2 className="font-medium">{step === 'email' ? t`Reset your password` : t`Enter your reset code`}</h2>
      {step === 'email' ? (
        <EmailStep
          key={`email-${round}`}
          initialEmail={email}
          onSent={(sentTo) => {
            setEmail(sentTo);
            setStep('code');
          }}
        />
      ) : (
        <CodeStep
          key={`code-${round}`}
          email={email}
          onBack={() => setStep('email')}
          onDone={() => {
            setEmail('');
            setRound((r) => r + 1);
            setStep('email');
          }}
        />
      )}
    </div>
  );
}
