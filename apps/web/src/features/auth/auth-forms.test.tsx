import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import superjson from 'superjson';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, AppRoutes } from '../../app';
import { toastRegion } from '../../test/toasts';
import { AuthProvider } from './auth-provider';

/** A fake /trpc endpoint: answers by procedure name in tRPC's batch format (superjson-encoded). */
type Answer = { data: unknown } | { error: { message: string; code: string; httpStatus: number } };
const TRPC_ERROR_CODES: Record<string, number> = {
  UNAUTHORIZED: -32001,
  BAD_REQUEST: -32600,
  CONFLICT: -32009,
};

function fakeServer(answers: Record<string, Answer>) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const procedure = url.replace(/^.*\/trpc\//, '').split('?')[0] ?? '';
    const answer = answers[procedure] ?? {
      error: { message: 'Not found', code: 'NOT_FOUND', httpStatus: 404 },
    };
    const body =
      'data' in answer
        ? { result: { data: superjson.serialize(answer.data) } }
        : {
            error: superjson.serialize({
              message: answer.error.message,
              code: TRPC_ERROR_CODES[answer.error.code] ?? -32603,
              data: { code: answer.error.code, httpStatus: answer.error.httpStatus, path: procedure },
            }),
          };
    const status = 'data' in answer ? 200 : answer.error.httpStatus;
    return new Response(JSON.stringify([body]), { status, headers: { 'content-type': 'application/json' } });
  });
}

const loggedOut: Answer = { data: null };
const alice = {
  id: '3f2c0d8e-0000-4000-8000-000000000001',
  username: 'alice',
  displayName: 'Alice Cube',
  email: 'alice@example.com',
  bio: null,
  avatarUrl: null,
  headerUrl: null,
  emailVisible: false,
  createdAt: new Date('2025-01-01T00:00:00Z'),
};

function calledProcedures(fetchMock: ReturnType<typeof fakeServer>): string[] {
  return fetchMock.mock.calls.map(
    ([input]) =>
      String(input)
        .replace(/^.*\/trpc\//, '')
        .split('?')[0] ?? '',
  );
}

function renderAt(path: string) {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>
          <AppRoutes />
        </AuthProvider>
      </MemoryRouter>
    </AppProviders>,
  );
}

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function useServer(answers: Record<string, Answer>) {
  server = fakeServer(answers);
  vi.stubGlobal('fetch', server);
}

async function openTab(name: 'Login' | 'Register' | 'Reset') {
  const tab = await screen.findByRole('tab', { name });
  // Radix Tabs activate on mousedown (pointer) or focus; keyboard users get the same through focus.
  act(() => {
    fireEvent.mouseDown(tab, { button: 0 });
  });
  await waitFor(() => expect(tab.getAttribute('aria-selected')).toBe('true'));
}

describe('/auth forms', () => {
  it('shows the register schema messages under the fields and does not send', async () => {
    useServer({ 'auth.session': loggedOut });
    renderAt('/auth');
    await openTab('Register');

    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'al' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    const password = screen.getByLabelText('Password');
    const message = await screen.findByText('Must be at least 6 characters');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(screen.getByText('At least 6 characters')).toBeTruthy();
    expect(screen.getByText('Username must be at least 3 characters')).toBeTruthy();
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Display name is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
    expect(calledProcedures(server)).not.toContain('auth.register');

    // Fixing a field clears its message while typing.
    fireEvent.change(password, { target: { value: 'abcdef' } });
    expect(screen.queryByText('Must be at least 6 characters')).toBeNull();
    expect(password.getAttribute('aria-invalid')).toBeNull();
  });

  it('requires both login fields before sending', async () => {
    useServer({ 'auth.session': loggedOut });
    renderAt('/auth');
    fireEvent.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(calledProcedures(server)).not.toContain('auth.login');
  });

  it("shows the server's message in a destructive 'Login failed' toast", async () => {
    useServer({
      'auth.session': loggedOut,
      'auth.login': {
        error: { message: 'Invalid email or password', code: 'UNAUTHORIZED', httpStatus: 401 },
      },
    });
    renderAt('/auth');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'alice@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    const region = await toastRegion();
    expect(await within(region).findByText('Login failed')).toBeTruthy();
    expect(within(region).getByText('Invalid email or password')).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(calledProcedures(server)).toContain('auth.login');
  });

  it('logs in, greets and goes home with the account menu in the header', async () => {
    useServer({ 'auth.session': loggedOut, 'auth.login': { data: { user: alice, isModerator: false } } });
    renderAt('/auth');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'alice@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Welcome back!')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Account menu' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: "Hi Alice Cube, here is what's new" })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Login' })).toBeNull();
    await waitFor(() => expect(document.title).toBe('Cubes AI'));
  });

  it('opens the reset tab from ?tab=reset', async () => {
    useServer({ 'auth.session': loggedOut });
    renderAt('/auth?tab=reset');
    expect(await screen.findByRole('button', { name: 'Send reset code' })).toBeTruthy();
    expect(document.title).toBe('Reset password · Cubes AI');
  });
});

describe('route access', () => {
  it('sends a logged-out visitor from /profile to /auth', async () => {
    useServer({ 'auth.session': loggedOut });
    renderAt('/profile');
    expect(await screen.findByRole('tab', { name: 'Login' })).toBeTruthy();
  });

  it('asks a logged-out visitor on /settings to log in instead of redirecting', async () => {
    useServer({ 'auth.session': loggedOut });
    renderAt('/settings');
    expect(await screen.findByText('Please login to access settings')).toBeTruthy();
    const links = screen.getAllByRole('link', { name: 'Login' });
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.getAttribute('href')).toBe('/auth');
    expect(screen.queryByRole('tab', { name: 'Login' })).toBeNull();
  });

  it('sends a logged-in user from /auth to /', async () => {
    useServer({ 'auth.session': { data: { user: alice, isModerator: false } } });
    renderAt('/auth');
    expect(await screen.findByRole('heading', { name: "Hi Alice Cube, here is what's new" })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Login' })).toBeNull();
  });

  it('shows the 404 page for unknown paths', async () => {
    useServer({ 'auth.session': loggedOut });
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/');
  });
});
