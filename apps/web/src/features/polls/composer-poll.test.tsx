import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, makePost, renderApp, sessionKnown } from '../../test/fake-trpc';
import { toastRegion } from '../../test/toasts';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the composer’s poll', () => {
  it('adds and removes options, picks a duration and multiple choice, checks them with the schema and sends them', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
      'posts.create': (input) => ({ data: { post: makePost({ userId: alice.id, content: input.content }) } }),
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const field = (await screen.findByPlaceholderText("What's on your mind?")) as HTMLTextAreaElement;
    fireEvent.change(field, { target: { value: 'Best cube?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add poll' }));
    const poll = await screen.findByRole('group', { name: 'Poll' });
    expect(within(poll).getAllByRole('textbox')).toHaveLength(2);
    // Two options at least: none can be removed yet.
    expect(within(poll).queryByRole('button', { name: /Remove option/ })).toBeNull();
    fireEvent.click(within(poll).getByRole('button', { name: 'Add option' }));
    fireEvent.click(within(poll).getByRole('button', { name: 'Add option' }));
    expect(within(poll).getAllByRole('textbox')).toHaveLength(4);
    expect(within(poll).queryByRole('button', { name: 'Add option' })).toBeNull();
    fireEvent.click(within(poll).getByRole('button', { name: 'Remove option 4' }));
    fireEvent.change(within(poll).getByLabelText('Option 1'), { target: { value: ' Red ' } });
    fireEvent.change(within(poll).getByLabelText('Option 2'), { target: { value: 'red' } });
    fireEvent.change(within(poll).getByLabelText('Option 3'), { target: { value: 'Blue' } });
    // The shared schema speaks: options must differ.
    expect(await within(poll).findByRole('alert')).toHaveProperty(
      'textContent',
      'Poll options must all be different',
    );
    const postButton = screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement;
    expect(postButton.disabled).toBe(true);
    fireEvent.change(within(poll).getByLabelText('Option 2'), { target: { value: 'Green' } });
    fireEvent.change(within(poll).getByLabelText('Duration'), { target: { value: '5' } });
    fireEvent.click(within(poll).getByLabelText('Multiple choice'));
    await waitFor(() => expect(within(poll).queryByRole('alert')).toBeNull());
    fireEvent.click(postButton);
    await waitFor(() => expect(server.called('posts.create')).toHaveLength(1));
    expect(server.called('posts.create')[0]?.input).toEqual({
      content: 'Best cube?',
      poll: { options: ['Red', 'Green', 'Blue'], expiresInMinutes: 5, multiple: true },
    });
    expect(await within(await toastRegion()).findByText('Post created successfully!')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Poll' })).toBeNull();
  });
});
