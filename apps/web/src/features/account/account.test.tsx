import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, type Handlers, type OutputOf, renderApp, serverError } from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type ExportState = NonNullable<OutputOf<'account.export'>>;
const EXPORT_ID = '5b0c4c0e-1111-4222-8333-444455556666';
function exportState(overrides: Partial<ExportState> = {}): ExportState {
  return {
    id: EXPORT_ID,
    status: 'queued',
    progress: 0,
    size: null,
    createdAt: new Date().toISOString(),
    finishedAt: null,
    downloadUrl: null,
    ...overrides,
  };
}

function setup(handlers: Handlers = {}) {
  const server = fakeTrpc({
    'auth.session': { data: { user: alice, isModerator: false } },
    'settings.get': {
      data: {
        username: alice.username,
        displayName: alice.displayName,
        email: alice.email!,
        bio: null,
        avatarUrl: null,
        headerUrl: null,
        emailVisible: false,
        messagesFrom: 'everyone',
        alwaysShowContentWarnings: false,
        alwaysShowSensitiveMedia: false,
        language: 'en',
      },
    },
    'account.export': { data: null },
    ...handlers,
  });
  renderApp('/settings');
  return server;
}

const dataCard = () => screen.findByRole('region', { name: 'Download my data' });

// The export polls once a second: the first test waits through two polls. Shared machines are slow.
describe('settings: Download my data', () => {
  it('starts an export, shows its progress while it is built, then offers the zip', async () => {
    // The server's answers in turn: building at 40 %, then done.
    const states = [
      exportState({ status: 'running', progress: 40 }),
      exportState({
        status: 'done',
        progress: 100,
        size: 2_500_000,
        finishedAt: new Date().toISOString(),
        downloadUrl: `/exports/${EXPORT_ID}`,
      }),
    ];
    let polls = 0;
    const server = setup({
      'account.export': () => ({ data: polls++ === 0 ? null : (states[Math.min(polls - 2, 1)] ?? null) }),
      'account.requestExport': { data: exportState() },
    });
    const card = await dataCard();
    fireEvent.click(await within(card).findByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(server.called('account.requestExport')).toHaveLength(1));

    const bar = await within(card).findByRole('progressbar', { name: 'Preparing your data...' });
    expect(within(card).getByRole('button', { name: 'Preparing...' }).hasAttribute('disabled')).toBe(true);
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('40'));

    const link = await within(card).findByRole('link', { name: 'Download zip' });
    expect(link.getAttribute('href')).toBe(`/exports/${EXPORT_ID}`);
    expect(link.hasAttribute('download')).toBe(true);
    expect(within(card).getByText(/Your data is ready \(2\.4 MB\)/)).toBeTruthy();
    expect(within(card).queryByRole('progressbar')).toBeNull();
    expect(within(card).getByRole('button', { name: 'Prepare a new copy' })).toBeTruthy();
  });

  it('says so when the export failed, and lets the member try again', async () => {
    setup({ 'account.export': { data: exportState({ status: 'failed' }) } });
    const card = await dataCard();
    expect(await within(card).findByRole('alert')).toHaveProperty(
      'textContent',
      'Your data could not be prepared. Please try again.',
    );
    expect(within(card).getByRole('button', { name: 'Download my data' }).hasAttribute('disabled')).toBe(
      false,
    );
  });

  it('shows a toast when the request fails', async () => {
    setup({ 'account.requestExport': serverError });
    const card = await dataCard();
    fireEvent.click(await within(card).findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Failed to prepare your data')).toBeTruthy();
  });

  it('offers Retry when the export state does not load', async () => {
    setup({ 'account.export': serverError });
    const card = await dataCard();
    expect(await within(card).findByText('Could not load your data export.')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});

describe('settings: Delete my account', () => {
  async function openDialog() {
    const card = await screen.findByRole('region', { name: 'Delete my account' });
    fireEvent.click(within(card).getByRole('button', { name: 'Delete my account' }));
    return screen.findByRole('dialog', { name: 'Delete your account?' });
  }

  it('needs the password, then deletes, logs out and goes home', async () => {
    const server = setup({ 'account.delete': { data: { ok: true } } });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
    expect(await within(dialog).findByText('Password is required')).toBeTruthy();
    expect(server.called('account.delete')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'secret12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
    expect(await screen.findByText('Your account was deleted')).toBeTruthy();
    expect(server.called('account.delete')[0]?.input).toEqual({ password: 'secret12' });
    expect(server.called('auth.logout')).toHaveLength(0);
    // Home, logged out: the settings page and the dialog are gone.
    expect(await screen.findByRole('link', { name: 'Login' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Settings' })).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a wrong password under the field and keeps the member logged in', async () => {
    setup({
      'account.delete': { error: { message: 'Password is incorrect', code: 'BAD_REQUEST', httpStatus: 400 } },
    });
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'wrong-one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
    expect(await screen.findByText('Failed to delete account')).toBeTruthy();
    const field = within(dialog).getByLabelText('Password');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getAllByText('Password is incorrect').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'Settings', hidden: true })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Login', hidden: true })).toBeNull();
  });

  it('Cancel closes the dialog without deleting anything', async () => {
    const server = setup();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.called('account.delete')).toHaveLength(0);
  });
});
