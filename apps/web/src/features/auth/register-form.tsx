import { isLanguage } from '@cubes/api/languages';
import { registerInput } from '@cubes/api/schemas';
import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from 'react-router-dom';
import { PasswordField } from '../../components/form/password-field';
import { TextField } from '../../components/form/text-field';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { serverFieldErrors } from '../../lib/trpc';
import { useAuth } from './auth-provider';
import { useRegisterMutation } from './queries';

export function RegisterForm() {
  const { i18n, t } = useLingui();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const form = useZodForm(registerInput, { username: '', email: '', password: '', displayName: '' });

  const register = useRegisterMutation({
    onSuccess: (session) => {
      const name = session.user.displayName;
      signIn(session);
      toast({ title: t`Account created!`, description: t`Welcome to Cubes AI, ${name}.` });
      navigate('/');
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast(t`Registration failed`, error, t`Please try again.`);
    },
  });

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={form.handleSubmit((data) =>
        // The account starts in the language the page is in (then follows the member: features/language).
        register.mutate({ ...data, ...(isLanguage(i18n.locale) ? { language: i18n.locale } : {}) }),
      )}
    >
      <TextField
        {...form.field('username')}
        label={t`Username`}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField
        {...form.field('email')}
        label={t`Email`}
        type="email"
        autoComplete="email"
        inputMode="email"
      />
      <PasswordField {...form.field('password')} label={t`Password`} purpose="new" />
      <TextField {...form.field('displayName')} label={t`Display name`} autoComplete="name" />
      <Button
        type="submit"
        className="mt-2 w-full"
        disabled={register.isPending}
        aria-busy={register.isPending}
      >
        {register.isPending ? <Spinner /> : null}
        <Trans>Create account</Trans>
      </Button>
    </form>
  );
}
