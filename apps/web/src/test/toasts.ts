/**
 * The toast area as tests read toasts in it: Radix's viewport (toaster.tsx), loaded with the first
 * toast. Until then an empty stand-in of the same name holds its place (toast-outlet.tsx), which
 * this waits past: Radix's region holds its list (`ol`).
 */
import { screen, waitFor } from '@testing-library/react';

export function toastRegion(): Promise<HTMLElement> {
  return waitFor(
    () => {
      const region = screen.getByRole('region', { name: 'Notifications' });
      if (!region.querySelector('ol')) throw new Error('the toast area is not loaded yet');
      return region;
      // The first test to load Radix Toast pays for its transform.
    },
    { timeout: 10_000 },
  );
}
