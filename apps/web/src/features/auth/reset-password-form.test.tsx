import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnswerOf, fakeTrpc, renderApp } from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const sent: AnswerOf<'auth.forgotPassword'> = {
  data: { message: 'If an account exists for that email, a reset code has been sent.' },
};

function value(label: string): string {
  return (screen.getByLabelText(label) as HTMLInputElement).value;
}

async function requestCode(email = 'alice@example.com') {
  fireEvent.change(await screen.findByLabelText('Email'), { target: { value: email } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Send reset code' }));
  });
  expect(await screen.findByText('Reset code sent')).toBeTruthy();
  expect(screen.getByText('Check your email for a 6-digit code.')).toBeTruthy();
  return screen.findByLabelText('Code');
}

describe('/auth Reset tab', () => {
  it('sends a code, then offers the code step; Back returns to the email step', async () => {
    const server = fakeTrpc({ 'auth.session': { data: null }, 'auth.forgotPassword': sent });
    renderApp('/auth?tab=reset');
    const code = await requestCode();
    expect(server.called('auth.forgotPassword')[0]?.input).toEqual({ email: 'alice@example.com' });
    expect(code.getAttribute('maxLength')).toBe('6');
    expect(code.getAttribute('inputMode')).toBe('numeric');
    expect(code.getAttribute('autoComplete')).toBe('one-time-code');
    expect(screen.getByLabelText('New password')).toBeTruthy();
    expect(screen.getByText('alice@example.com')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('button', { name: 'Send reset code' })).toBeTruthy();
    expect(value('Email')).toBe('alice@example.com');
    expect(screen.queryByLabelText('Code')).toBeNull();
  });

  it('checks the code and password before sending', async () => {
    const server = fakeTrpc({ 'auth.session': { data: null }, 'auth.forgotPassword': sent });
    renderApp('/auth?tab=reset');
    const code = await requestCode();
    fireEvent.change(code, { target: { value: '12a' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Code must be 6 digits')).toBeTruthy();
    expect(screen.getByText('Must be at least 6 characters')).toBeTruthy();
    expect(server.called('auth.resetPassword')).toHaveLength(0);
  });

  it('resets the password and returns to the email step with every field cleared', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'auth.forgotPassword': sent,
      'auth.resetPassword': { data: { message: 'Password reset successfully' } },
    });
    renderApp('/auth?tab=reset');
    const code = await requestCode();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'newsecret' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    });
    expect(await screen.findByText('Password reset successfully')).toBeTruthy();
    expect(server.called('auth.resetPassword')[0]?.input).toEqual({
      email: 'alice@example.com',
      code: '123456',
      newPassword: 'newsecret',
    });
    expect(await screen.findByRole('button', { name: 'Send reset code' })).toBeTruthy();
    expect(value('Email')).toBe('');
    // The code step starts empty again too.
    await requestCode('bob@example.com');
    expect(value('Code')).toBe('');
    expect(value('New password')).toBe('');
  });

  it("shows 'Reset failed' with the server's message and stays on the code step", async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'auth.forgotPassword': sent,
      'auth.resetPassword': {
        error: { message: 'Invalid or expired code', code: 'BAD_REQUEST', httpStatus: 400 },
      },
    });
    renderApp('/auth?tab=reset');
    const code = await requestCode();
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'newsecret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Reset failed')).toBeTruthy();
    expect(screen.getByText('Invalid or expired code')).toBeTruthy();
    expect(value('Code')).toBe('000000');
  });

  it("shows 'Error' with the server's message when sending fails, a generic line on a server fault, and \"You're offline\" without an answer", async () => {
    let fail: 'limit' | 'fault' | 'network' = 'limit';
    fakeTrpc({
      'auth.session': { data: null },
      'auth.forgotPassword': () => {
        if (fail === 'network') throw new TypeError('Failed to fetch');
        if (fail === 'fault')
          return {
            error: { message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 },
          };
        return {
          error: {
            message: 'Too many requests, try again later',
            code: 'TOO_MANY_REQUESTS',
            httpStatus: 429,
          },
        };
      },
    });
    renderApp('/auth?tab=reset');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'alice@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset code' }));
    expect(await screen.findByText('Error')).toBeTruthy();
    expect(screen.getByText('Too many requests, try again later')).toBeTruthy();

    fail = 'fault';
    fireEvent.click(screen.getByRole('button', { name: 'Send reset code' }));
    expect(await screen.findByText('Something went wrong. Please try again.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByLabelText('Code')).toBeNull());

    // No answer at all (lib/connectivity): the browser may still say it is online.
    fail = 'network';
    fireEvent.click(screen.getByRole('button', { name: 'Send reset code' }));
    expect(await screen.findByText("You're offline")).toBeTruthy();
    expect(screen.queryByLabelText('Code')).toBeNull();
  });
});
