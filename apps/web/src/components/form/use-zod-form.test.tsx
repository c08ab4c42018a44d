/**
 * useZodForm's options for the forms whose input is more than their fields: the procedure's input
 * built from them (`toInput`), an issue on no field (`errors.root`), values kept elsewhere, a
 * schema that loads late (a submit waits for it, once), and `reset()`.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useZodForm } from './use-zod-form';

const noteInput = z.object({
  noteId: z.string().min(1, 'Note id is required'),
  text: z.string().trim().min(1, 'Text cannot be empty').max(5, 'Text must be at most 5 characters'),
});

function Note({
  noteId = 'n1',
  load,
  onSend,
}: {
  noteId?: string;
  load?: () => Promise<typeof noteInput>;
  onSend: (input: z.output<typeof noteInput>) => void;
}) {
  // Kept outside the form, as a draft is.
  const [kept, setKept] = useState({ text: '' });
  const form = useZodForm(
    load ?? noteInput,
    { text: '' },
    { values: kept, onValuesChange: setKept, toInput: ({ text }) => ({ noteId, text }) },
  );
  return (
    <form
      onSubmit={form.handleSubmit((input) => {
        onSend(input);
        setKept({ text: '' });
        form.reset();
      })}
    >
      <input
        aria-label="Text"
        id={form.fieldId('text')}
        value={form.values.text}
        onChange={(event) => form.setValue('text', event.target.value)}
      />
      <p data-testid="text-error">{form.errors.text}</p>
      <p data-testid="root-error">{form.errors.root}</p>
      <button type="submit">Send</button>
    </form>
  );
}

describe('useZodForm', () => {
  it("checks the procedure's input built from the fields, and sends the schema's output", () => {
    const onSend = vi.fn();
    render(<Note onSend={onSend} />);
    const box = screen.getByLabelText('Text');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByTestId('text-error').textContent).toBe('Text cannot be empty');
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: 'abcdef' } });
    expect(screen.getByTestId('text-error').textContent).toBe('Text must be at most 5 characters');
    fireEvent.change(box, { target: { value: ' abc ' } });
    expect(screen.getByTestId('text-error').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith({ noteId: 'n1', text: 'abc' });
    // Reset: the emptied field says nothing until the next submit.
    expect((box as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('text-error').textContent).toBe('');
  });

  it('puts an issue on no field under root', () => {
    const onSend = vi.fn();
    render(<Note noteId="" onSend={onSend} />);
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByTestId('root-error').textContent).toBe('Note id is required');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('waits for a schema that loads late, once for two submits', async () => {
    const onSend = vi.fn();
    let loaded: (schema: typeof noteInput) => void = () => {};
    const load = vi.fn(
      () =>
        new Promise<typeof noteInput>((resolve) => {
          loaded = resolve;
        }),
    );
    render(<Note load={load} onSend={onSend} />);
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(load).toHaveBeenCalledTimes(1);
    expect(onSend).not.toHaveBeenCalled();
    loaded(noteInput);
    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
    expect(onSend).toHaveBeenCalledWith({ noteId: 'n1', text: 'abc' });
  });
});
