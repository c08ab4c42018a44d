import type { RouterOutputs } from '@cubes/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, bob, fakeTrpc, renderApp, sessionKnown } from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Report = RouterOutputs['moderation']['reports']['items'][number];
type Entry = RouterOutputs['moderation']['log']['items'][number];

const notFound = { error: { message: 'Not found', code: 'NOT_FOUND', httpStatus: 404 } } as const;
const POST_ID = '9a1b0c8e-0000-4000-8000-000000000010';
const report: Report = {
  id: '5e0c0000-0000-4000-8000-000000000001',
  targetType: 'post',
  targetId: POST_ID,
  reason: 'This is spam',
  createdAt: new Date(Date.now() - 10 * 60_000),
  reporter: { id: alice.id, username: 'carol', displayName: 'Carol' },
  targetUser: { id: bob.id, username: 'bob', displayName: 'Bob Block', avatarUrl: null, suspension: null },
  openReportsOnItem: 2,
  context: [
    {
      id: POST_ID,
      kind: 'post',
      username: 'bob',
      content: 'Buy cheap cubes now',
      imageUrl: null,
      createdAt: new Date(Date.now() - 60 * 60_000),
      reported: true,
      removed: false,
    },
  ],
};
const entry: Entry = {
  id: '6f0c0000-0000-4000-8000-000000000001',
  action: 'suspend',
  moderatorUsername: 'alice',
  targetType: 'user',
  targetId: bob.id,
  targetUsername: 'dave',
  note: 'Ban evasion',
  suspendedUntil: null,
  createdAt: new Date(Date.now() - 3_600_000),
};

function moderator(overrides: Parameters<typeof fakeTrpc>[0] = {}) {
  return fakeTrpc({
    'auth.session': { data: { user: alice, isModerator: true } },
    'moderation.reports': { data: { items: [report], nextCursor: null } },
    'moderation.log': { data: { items: [entry], nextCursor: null } },
    ...overrides,
  });
}

describe('/moderation', () => {
  it('is in a moderator’s account menu, and in no one else’s', async () => {
    const accountMenu = async () => {
      fireEvent.keyDown(await screen.findByRole('button', { name: 'Account menu' }), { key: 'Enter' });
      return screen.findByRole('menu');
    };
    moderator();
    const { unmount } = renderApp('/');
    const link = within(await accountMenu()).getByRole('menuitem', { name: 'Moderation' });
    expect(link.getAttribute('href')).toBe('/moderation');
    fireEvent.click(link);
    expect(await screen.findByText('This is spam')).toBeTruthy();
    unmount();

    fakeTrpc({ 'auth.session': { data: { user: alice, isModerator: false } } });
    renderApp('/');
    await sessionKnown();
    const menu = await accountMenu();
    within(menu).getByRole('menuitem', { name: 'Settings' });
    expect(within(menu).queryByRole('menuitem', { name: 'Moderation' })).toBeNull();
  });

  it('is the 404 page for anyone the procedures answer 404', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'moderation.reports': notFound,
      'moderation.log': notFound,
    });
    renderApp('/moderation');
    await sessionKnown();
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Moderation' })).toBeNull();
  });

  it('shows the open reports with the item in context, and the audit log', async () => {
    moderator();
    renderApp('/moderation');
    await sessionKnown();
    const card = (await screen.findByRole('heading', { name: 'Post by @bob' })).closest('div.grid')!
      .parentElement!;
    expect(card.textContent).toContain('Reported by @carol');
    expect(card.textContent).toContain('2 open reports on this item');
    expect(card.textContent).toContain('This is spam');
    const context = within(card as HTMLElement).getByRole('list', { name: 'Reported item in context' });
    expect(context.textContent).toContain('Buy cheap cubes now');
    expect(context.textContent).toContain('Reported');
    const log = await screen.findByRole('list', { name: 'Moderation actions, newest first' });
    expect(log.textContent).toContain('@alice suspended @dave for ever');
    expect(log.textContent).toContain('Ban evasion');
  });

  it('says when the queue is empty', async () => {
    moderator({
      'moderation.reports': { data: { items: [], nextCursor: null } },
      'moderation.log': { data: { items: [], nextCursor: null } },
    });
    renderApp('/moderation');
    await sessionKnown();
    expect(await screen.findByText('No open reports. All clear.')).toBeTruthy();
    expect(await screen.findByText('No moderation actions yet.')).toBeTruthy();
  });

  it('removes the content with a required reason', async () => {
    const server = moderator({
      'moderation.remove': {
        data: { ok: true, entry: { ...entry, action: 'remove', targetType: 'post', note: 'Spam' } },
      },
    });
    renderApp('/moderation');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove content' });
    expect(dialog.textContent).toContain('the post by @bob');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Give a reason');
    fireEvent.change(within(dialog).getByLabelText('Reason (the author is told)'), {
      target: { value: 'Spam' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(server.called('moderation.remove').map((c) => c.input)).toEqual([
        { reportId: report.id, reason: 'Spam' },
      ]),
    );
    expect(await screen.findByText('Content removed')).toBeTruthy();
  });

  it("checks the reason with the action's schema: once tried, again with each change", async () => {
    const server = moderator();
    renderApp('/moderation');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'Suspend @bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend member' });
    const field = within(dialog).getByLabelText('Reason (for the audit log)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Give a reason');
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: 'Spam' } });
    await waitFor(() => expect(within(dialog).queryByRole('alert')).toBeNull());
    fireEvent.change(field, { target: { value: '  ' } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Give a reason');
    expect(server.called('moderation.suspend')).toHaveLength(0);
  });

  it('suspends the author for the period chosen, or for ever', async () => {
    const server = moderator({ 'moderation.suspend': { data: { ok: true, entry } } });
    renderApp('/moderation');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'Suspend @bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend member' });
    fireEvent.click(within(dialog).getByLabelText('For ever'));
    fireEvent.change(within(dialog).getByLabelText('Reason (for the audit log)'), {
      target: { value: 'Spam' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() =>
      expect(server.called('moderation.suspend').map((c) => c.input)).toEqual([
        { userId: bob.id, reportId: report.id, days: null, reason: 'Spam' },
      ]),
    );
    expect(await screen.findByText('Member suspended')).toBeTruthy();
  });

  it('dismisses with an optional note', async () => {
    const server = moderator({
      'moderation.dismiss': { data: { ok: true, entry: { ...entry, action: 'dismiss' } } },
    });
    renderApp('/moderation');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss report' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() =>
      expect(server.called('moderation.dismiss').map((c) => c.input)).toEqual([{ reportId: report.id }]),
    );
  });

  it('lifts a suspension from the audit log, with a reason', async () => {
    const server = moderator({
      'moderation.unsuspend': { data: { ok: true, entry: { ...entry, action: 'unsuspend' } } },
    });
    renderApp('/moderation');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'Lift suspension of @dave' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lift suspension' });
    fireEvent.change(within(dialog).getByLabelText('Reason (for the audit log)'), {
      target: { value: 'Appeal' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lift suspension' }));
    await waitFor(() =>
      expect(server.called('moderation.unsuspend').map((c) => c.input)).toEqual([
        { userId: bob.id, reason: 'Appeal' },
      ]),
    );
    expect(await screen.findByText('Suspension lifted')).toBeTruthy();
  });
});
