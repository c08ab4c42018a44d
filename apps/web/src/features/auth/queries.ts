/**
 * The auth forms' requests: login, register and the two steps of a password reset. The forms pass
 * their own toasts and field errors as the mutations' callbacks; a sign-in's session reaches the
 * cache through useAuth().signIn (the session's own queries are in session-queries.ts, which the
 * first page loads).
 */
import { trpc } from '../../lib/trpc';

type LoginOptions = NonNullable<Parameters<typeof trpc.auth.login.useMutation>[0]>;
type RegisterOptions = NonNullable<Parameters<typeof trpc.auth.register.useMutation>[0]>;
type ForgotOptions = NonNullable<Parameters<typeof trpc.auth.forgotPassword.useMutation>[0]>;
type ResetOptions = NonNullable<Parameters<typeof trpc.auth.resetPassword.useMutation>[0]>;

export function useLoginMutation(options: LoginOptions = {}) {
  return trpc.auth.login.useMutation(options);
}

export function useRegisterMutation(options: RegisterOptions = {}) {
  return trpc.auth.register.useMutation(options);
}

/** Step 1 of a password reset: a code is sent to the email. */
export function useForgotPasswordMutation(options: ForgotOptions = {}) {
  return trpc.auth.forgotPassword.useMutation(options);
}

/** Step 2: the code and a new password. */
export function useResetPasswordMutation(options: ResetOptions = {}) {
  return trpc.auth.resetPassword.useMutation(options);
}
