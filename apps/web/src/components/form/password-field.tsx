/**
 * The shared password field (login, register, reset, change password, change email, delete
 * account): a TextField of type password whose autocomplete says which password it is, so a
 * password manager fills the current one and offers to make a new one, and whose hint for a new
 * password states the minimum from the shared schemas (SPEC: minimum 6).
 */
import { PASSWORD_MIN } from '@cubes/api/schemas';
import { TextField, type TextFieldProps } from './text-field';

/** `new` is a password being chosen; `confirm` repeats it (no hint of its own). */
export type PasswordPurpose = 'current' | 'new' | 'confirm';

export const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN} characters`;

export function PasswordField({
  purpose,
  hint,
  ...props
}: Omit<TextFieldProps, 'type' | 'autoComplete'> & { purpose: PasswordPurpose }) {
  return (
    <TextField
      {...props}
      type="password"
      autoComplete={purpose === 'current' ? 'current-password' : 'new-password'}
      hint={hint ?? (purpose === 'new' ? NEW_PASSWORD_HINT : undefined)}
    />
  );
}
