import { I18nProvider } from '@lingui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { AiArtGeneratorDialog, GENERATION_DELAY_MS } from './ai-art-generator-dialog';

function Harness({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const [open, setOpen] = useState(true);
  return (
    <I18nProvider i18n={i18n}>
      <span data-testid="state">{open ? 'open' : 'closed'}</span>
      <AiArtGeneratorDialog
        open={open}
        onOpenChange={(next) => {
          onOpenChange(next);
          setOpen(next);
        }}
      />
    </I18nProvider>
  );
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.useFakeTimers();
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('<AiArtGeneratorDialog>', () => {
  it('shows the title, description, prompt and the Pixel Art style first', () => {
    render(<Harness onOpenChange={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'AI Art Generator' });
    expect(dialog).toBeTruthy();
    expect(screen.getByText('Create stunning AI-generated images with different styles')).toBeTruthy();
    const prompt = screen.getByLabelText('Prompt') as HTMLInputElement;
    expect(prompt.placeholder).toBe('Describe what you want to create...');
    expect(prompt.value).toBe('');
    expect(screen.getByRole('combobox', { name: 'Style' }).textContent).toContain('Pixel Art');
  });

  it('keeps Generate disabled while the prompt is empty or blank', () => {
    render(<Harness onOpenChange={() => {}} />);
    const generate = screen.getByRole('button', { name: 'Generate' }) as HTMLButtonElement;
    expect(generate.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: '   ' } });
    expect(generate.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'a cube city at dusk' } });
    expect(generate.disabled).toBe(false);
  });

  it('generates for 2 s without sending anything, then goes idle and closes', () => {
    const onOpenChange = vi.fn();
    render(<Harness onOpenChange={onOpenChange} />);
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'a cube city at dusk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));

    const busy = screen.getByRole('button', { name: 'Generating...' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.querySelector('svg.animate-spin')).toBeTruthy();

    act(() => {
      vi.advanceTimersByTime(GENERATION_DELAY_MS - 1);
    });
    expect(screen.getByRole('button', { name: 'Generating...' })).toBeTruthy();
    expect(onOpenChange).not.toHaveBeenCalled();

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(screen.getByTestId('state').textContent).toBe('closed');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("refuses a prompt over 1000 characters with the schema's message, on the prompt, and generates nothing", () => {
    const onOpenChange = vi.fn();
    render(<Harness onOpenChange={onOpenChange} />);
    const prompt = screen.getByLabelText('Prompt') as HTMLInputElement;
    // No silent cut at 1000: the schema says what is wrong.
    expect(prompt.maxLength).toBe(-1);
    fireEvent.change(prompt, { target: { value: 'x'.repeat(1001) } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(screen.getByText('Prompt must be at most 1000 characters')).toBeTruthy();
    expect(prompt.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(prompt);
    expect(screen.queryByRole('button', { name: 'Generating...' })).toBeNull();
    act(() => {
      vi.runAllTimers();
    });
    expect(onOpenChange).not.toHaveBeenCalled();
    fireEvent.change(prompt, { target: { value: 'x'.repeat(1000) } });
    expect(screen.queryByText('Prompt must be at most 1000 characters')).toBeNull();
  });

  it('submits with Enter in the prompt too', () => {
    render(<Harness onOpenChange={() => {}} />);
    const prompt = screen.getByLabelText('Prompt');
    fireEvent.change(prompt, { target: { value: 'pixel dragon' } });
    fireEvent.submit(prompt.closest('form')!);
    expect(screen.getByRole('button', { name: 'Generating...' })).toBeTruthy();
    act(() => {
      vi.runAllTimers();
    });
  });
});
