/**
 * The shared password field: a password input, named by its label, that tells a password manager
 * which password it is, and states the minimum under a new one (and under no other).
 */

import { I18nProvider } from '@lingui/react';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n';
import { PasswordField, type PasswordPurpose } from './password-field';

/** The app's i18n (English, activated in test/setup.ts) for components rendered on their own. */
function wrapper({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

function field(purpose: PasswordPurpose, label: string) {
  render(<PasswordField id={purpose} label={label} value="" onValueChange={() => {}} purpose={purpose} />, {
    wrapper,
  });
  return screen.getByLabelText(label) as HTMLInputElement;
}

describe('PasswordField', () => {
  it('is a current password for login and checks', () => {
    const input = field('current', 'Password');
    expect(input.type).toBe('password');
    expect(input.autocomplete).toBe('current-password');
    expect(input.getAttribute('aria-describedby')).toBeNull();
  });

  it('states the minimum under a new password, tied to it for screen readers', () => {
    const input = field('new', 'New password');
    expect(input.type).toBe('password');
    expect(input.autocomplete).toBe('new-password');
    const hint = screen.getByText('At least 6 characters');
    expect(input.getAttribute('aria-describedby')).toBe(hint.id);
  });

  it('repeats a new password without a hint of its own', () => {
    const input = field('confirm', 'Confirm new password');
    expect(input.autocomplete).toBe('new-password');
    expect(screen.queryByText('At least 6 characters')).toBeNull();
  });
});
