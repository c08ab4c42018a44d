import { loginInput } from '@cubes/api/schemas';
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
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const form = useZodForm(loginInput, { email: '', password: '' });

  const login = useLoginMutation({
    onSuccess: (session) => {
      const { user } = session;
      signIn(session);
      toast({ title: 'Welcome back!', description: `Logged in as @${user.username}.` });
      navigate('/');
    },
    onError: (error) => {
      form.setFieldErrors(serverFieldErrors(error));
      errorToast('Login failed', error, 'Please check your credentials and try again.');
    },
  });

  return (
    <form noValidate className="grid gap-4" onSubmit={form.handleSubmit((data) => login.mutate(data))}>
      <TextField {...form.field('email')} label="Email" type="email" autoComplete="email" inputMode="email" />
      <PasswordField {...form.field('password')} label="Password" purpose="current" />
      <Button type="submit" className="mt-2 w-full" disabled={login.isPending} aria-busy={login.isPending}>
        {login.isPending ? <Spinner /> : null}
        Login
      </Button>
    </form>
  );
}
