/**
 * The @ list offers only members the typed text still fits: while the answer for what was just
 * typed is on its way, the list shows the previous answer's members that match, so a writer who
 * types a whole name and presses Enter gets that member, not the first of a shorter query's list.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnswerOf, alice, deferred, fakeTrpc, renderWithApp } from '../../test/fake-trpc';
import { MentionTextarea } from './mention-textarea';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const card = (username: string) => ({
  id: `00000000-0000-4000-8000-${username.length.toString().padStart(12, '0')}`,
  username,
  displayName: username,
  avatarUrl: null,
  isFollowing: false,
});

function Field() {
  const [value, setValue] = useState('');
  return <MentionTextarea aria-label="Post text" value={value} onValueChange={setValue} enabled />;
}

describe('MentionTextarea', () => {
  it('never offers, nor picks on Enter, a member the typed name has gone past', async () => {
    const whole = deferred<AnswerOf<'mentions.suggest'>>();
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'mentions.suggest': (input) =>
        input.q === 'carolb' ? whole.promise : { data: { users: [card('carola'), card('carolb')] } },
    });
    renderWithApp(<Field />);
    const box = (await screen.findByLabelText('Post text')) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'hi @ca', selectionStart: 6 } });
    const list = await screen.findByRole('listbox', { name: 'Members to mention' });
    await within(list).findByRole('option', { name: /@carola/ });

    // The whole name, typed before its own answer comes: only carolb still fits.
    fireEvent.change(box, { target: { value: 'hi @carolb', selectionStart: 10 } });
    await waitFor(() => expect(within(list).queryByRole('option', { name: /@carola/ })).toBeNull());
    expect(within(list).getByRole('option', { name: /@carolb/ })).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('hi @carolb ');
    whole.resolve({ data: { users: [card('carolb')] } });
  });
});
