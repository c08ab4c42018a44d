/**
 * The toast area on a fresh page: a region named 'Notifications' before any toast (Radix Toast is
 * not loaded yet), and F8 focuses it; once a toast is raised, Radix's region takes its place, alone,
 * with the toast in it, and F8 still lands there.
 */

import { I18nProvider } from '@lingui/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n';
import { toastRegion } from '../../test/toasts';
import { ToastOutlet } from './toast-outlet';
import { toast } from './use-toast';

/** The app's i18n (English, activated in test/setup.ts) for components rendered on their own. */
function wrapper({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

const pressF8 = () => fireEvent.keyDown(document, { key: 'F8', code: 'F8' });

describe('toast area', () => {
  it('is a region named Notifications from the start, and F8 focuses it', () => {
    render(<ToastOutlet />, { wrapper });
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.textContent).toBe('');
    expect(document.activeElement).not.toBe(region);
    pressF8();
    expect(document.activeElement).toBe(region);
  });

  it('gives way to Radix’s region with the first toast; F8 still focuses the area', async () => {
    render(<ToastOutlet />, { wrapper });
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
