import { useState } from 'react';

/**
 * Whether `open` has been true at least once in this component's life: a dialog whose code loads
 * on demand is mounted from its first opening on, and stays, so it can animate its closing and
 * hand focus back.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  // Set while rendering (React's pattern for state derived from a prop): no extra commit.
  if (open && !opened) setOpened(true);
  return opened || open;
}
