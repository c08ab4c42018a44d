/**
 * The mention-aware composer the home composer, the Edit dialog and the comment box share: named by
 * its label, counting the trimmed text from `counterFrom` and red (and invalid) past the limit, the
 * error and the count tied to the field for screen readers, Ctrl/⌘+Enter sending the form through
 * its own submit.
 */
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, makePost, renderApp, renderWithApp, sessionKnown } from '../../test/fake-trpc';
import { MentionComposer } from './mention-composer';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Form({ error, onSubmit }: { error?: string; onSubmit: () => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <MentionComposer
        id="field"
        label="Write a note"
        value={value}
        onValueChange={setValue}
        enabled
        maxLength={10}
        counterFrom={8}
        error={error}
      />
    </form>
  );
}

describe('MentionComposer', () => {
  it('counts the trimmed text near the limit, marks it past the limit and ties both to the field', async () => {
    fakeTrpc({ 'auth.session': { data: { user: alice, isModerator: false } } });
    renderWithApp(<Form onSubmit={() => {}} />);
    const box = (await screen.findByLabelText('Write a note')) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: '  1234567  ' } });
    expect(screen.queryByText(/\/10$/)).toBeNull();
    expect(box.getAttribute('aria-describedby')).toBeNull();
    fireEvent.change(box, { target: { value: '12345678' } });
    const counter = screen.getByText('8/10');
    expect(box.getAttribute('aria-describedby')).toBe(counter.id);
    expect(box.getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(box, { target: { value: '12345678901' } });
    expect(screen.getByText('11/10').className).toContain('text-destructive');
    expect(box.getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the error under the field, named by it, and marks the field invalid', async () => {
    fakeTrpc({ 'auth.session': { data: { user: alice, isModerator: false } } });
    renderWithApp(<Form error="Note cannot be empty" onSubmit={() => {}} />);
    const box = await screen.findByLabelText('Write a note');
    const error = screen.getByText('Note cannot be empty');
    expect(box.getAttribute('aria-describedby')).toBe(error.id);
    expect(box.getAttribute('aria-invalid')).toBe('true');
  });

  it('sends the form on Ctrl+Enter and on ⌘+Enter, not on Enter alone', async () => {
    fakeTrpc({ 'auth.session': { data: { user: alice, isModerator: false } } });
    const onSubmit = vi.fn();
    renderWithApp(<Form onSubmit={onSubmit} />);
    const box = await screen.findByLabelText('Write a note');
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    fireEvent.keyDown(box, { key: 'Enter', metaKey: true });
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });
});

describe('the comment box', () => {
  it('is the shared composer: it counts near the 2000-character limit, as the post composer does', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
      'comments.list': { data: { items: [], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(await screen.findByRole('button', { name: /^Comments,/ }));
    const box = (await screen.findByLabelText('Write a comment')) as HTMLTextAreaElement;
    expect(card.contains(box)).toBe(true);
    fireEvent.change(box, { target: { value: 'x'.repeat(1799) } });
    expect(screen.queryByText('1799/2000')).toBeNull();
    fireEvent.change(box, { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByText('2001/2000')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
  });
});
