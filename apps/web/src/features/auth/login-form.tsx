import { loginInput } from '@cubes/api/schemas';
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
import { useLoginMutation } from './queries';

export function LoginForm() {
  const { t } = useLingui();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const form = useZodForm(loginInput, { email: '', password: '' });

  const login = useLoginMutation({
    onSuccess: (session) => {
      const username = session.user.username;
      signIn(session);
      toast({ title: t`Welcome back!`, description: t`Logged in as @${username}.` });
      navigate('/');
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast(t`Login failed`, error, t`Please check your credentials and try again.`);
    },
  });

  return (
    <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((data) => login.mutate(data))}>
      <TextField
        {...form.field('email')}
        label={t`Email`}
        type="email"
        autoComplete="email"
        inputMode="email"
      />
      <PasswordField {...form.field('password')} label={t`Password`} purpose="current" />
      <Button type="submit" className="mt-2 w-full" disabled={login.isPending} aria-busy={login.isPending}>
        {login.isPending ? <Spinner /> : null}
        <Trans>Login</Trans>
      </Button>
    </form>
  );
}
