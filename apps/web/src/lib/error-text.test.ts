/**
 * The app's words for the API's errors (lib/error-text.ts, lib/error-reasons.ts): by the reason
 * the server gives, or by the reason of a shared schema's message read in the browser, else the
 * server's English message.
 */
import { ERROR_REASONS, type ErrorReason } from '@cubes/api/error-reasons';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateWith } from '../components/form/use-zod-form';
import { describeError } from './error-message';
import { REASON_TEXT, translateError } from './error-reasons';
import { errorText, loadErrorTexts } from './error-text';
import { activateLanguage, i18n } from './i18n';
import { serverFieldErrors } from './trpc';

/** A tRPC error as the client builds it from the server's error shape. */
function serverError(message: string, data: Record<string, unknown>) {
  return TRPCClientError.from({ error: { message, code: -32600, data: { httpStatus: 400, ...data } } });
}

describe('error texts in German', () => {
  beforeAll(async () => {
    await activateLanguage('de');
    await loadErrorTexts();
  });
  afterAll(() => activateLanguage('en'));

  it("gives the German text for a reason, and the server's message for one it does not know", () => {
    expect(i18n.locale).toBe('de');
    expect(translateError('Post not found', 'POST_NOT_FOUND')).toBe('Beitrag nicht gefunden');
    expect(translateError('Username is already taken', 'USERNAME_TAKEN')).toBe(
      'Dieser Benutzername ist bereits vergeben',
    );
    expect(translateError('Something new went wrong', 'SOMETHING_NEW')).toBe('Something new went wrong');
    expect(translateError('This poll has 3 options: choose from 0 to 2')).toBe(
      'This poll has 3 options: choose from 0 to 2',
    );
  });

  it('finds the reason of a message that came without one (a schema read in the browser)', () => {
    expect(errorText('Post must be at most 2000 characters')).toBe(
      'Der Beitrag darf höchstens 2000 Zeichen lang sein',
    );
  });

  it("words a server error's toast and its field errors in German", () => {
    const taken = serverError('Username is already taken', { code: 'CONFLICT', reason: 'USERNAME_TAKEN' });
    expect(describeError(taken)).toBe('Dieser Benutzername ist bereits vergeben');
    const unknown = serverError('A brand new refusal', { code: 'BAD_REQUEST', reason: 'BRAND_NEW' });
    expect(describeError(unknown)).toBe('A brand new refusal');
    const invalid = serverError('Enter a valid email address', {
      code: 'BAD_REQUEST',
      reason: 'EMAIL_INVALID',
      issues: [{ path: 'email', message: 'Enter a valid email address', reason: 'EMAIL_INVALID' }],
    });
    expect(serverFieldErrors(invalid)).toEqual({ email: 'Gib eine gültige E-Mail-Adresse ein' });
  });

  it("shows a shared schema's messages in German", async () => {
    const { postContentSchema } = await import('@cubes/api/schemas');
    const result = validateWith(postContentSchema, '   ', ['content']);
    expect(result).toEqual({ ok: false, errors: { root: 'Der Beitrag darf nicht leer sein' } });
  });
});

describe('error texts in English', () => {
  // The web's table repeats the server's English as each message's source (the catalogs translate
  // from it): it must say what the server says, word for word.
  it("are written as the server's messages, for every reason", () => {
    const differ = Object.entries(ERROR_REASONS)
      .filter(([reason, message]) => REASON_TEXT[reason as ErrorReason].message !== message)
      .map(([reason]) => reason);
    expect(differ).toEqual([]);
  });

  it("are the server's messages", () => {
    expect(i18n.locale).toBe('en');
    expect(errorText('Post not found', 'POST_NOT_FOUND')).toBe('Post not found');
    expect(translateError('Post not found', 'POST_NOT_FOUND')).toBe('Post not found');
  });
});
