/**
 * The toast area on a fresh page: a region named 'Notifications' before any toast (Radix Toast is
 * not loaded yet), and F8 focuses it; once a toast is raised, Radix's region takes its place, alone,
 * with the toast in it, and F8 still lands there.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toastRegion } from '../../test/toasts';
import { ToastOutlet } from './toast-outlet';
import { toast } from './use-toast';

const pressF8 = () => fireEvent.keyDown(document, { key: 'F8', code: 'F8' });

describe('toast area', () => {
  it('is a region named Notifications from the start, and F8 focuses it', () => {
    render(<ToastOutlet />);
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.textContent).toBe('');
    expect(document.activeElement).not.toBe(region);
    pressF8();
    expect(document.activeElement).toBe(region);
  });

  it('gives way to Radix’s region with the first toast; F8 still focuses the area', async () => {
    render(<ToastOutlet />);
    act(() => {
      toast({ title: 'Saved', description: 'All good' });
    });
    const region = await toastRegion();
    expect(await within(region).findByText('Saved')).toBeTruthy();
    expect(screen.getAllByRole('region', { name: 'Notifications' })).toHaveLength(1);
    pressF8();
    await waitFor(() => expect(region.contains(document.activeElement)).toBe(true));
  });
});
