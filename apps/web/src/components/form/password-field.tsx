/**
 * The shared password field (login, register, reset, change password, change email, delete
 * account): a TextField of type password whose autocomplete says which password it is, so a
 * password manager fills the current one and offers to make a new one, and whose hint for a new
 * password states the minimum from the shared schemas (SPEC: minimum 6).
 */

import { PASSWORD_MIN } from '@cubes/api/schemas';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { TextField, type TextFieldProps } from './text-field';

/** `new` is a password being chosen; `confirm` repeats it (no hint of its own). */
export type PasswordPurpose = 'current' | 'new' | 'confirm';

/** The hint under a new password (translated where it is shown: `i18n._(NEW_PASSWORD_HINT)`). */
export const NEW_PASSWORD_HINT = msg`At least ${PASSWORD_MIN} characters`;

export function PasswordField({
  purpose,
  hint,
  ...props
}: Omit<TextFieldProps, 'type' | 'autoComplete'> & { purpose: PasswordPurpose }) {
  const { i18n } = useLingui();
  return (
    <TextField
      {...props}
      type="password"
      autoComplete={purpose === 'current' ? 'current-password' : 'new-password'}
      hint={hint ?? (purpose === 'new' ? i18n._(NEW_PASSWORD_HINT) : undefined)}
    />
  );
}
