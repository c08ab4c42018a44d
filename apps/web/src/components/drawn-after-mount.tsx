import type { ReactNode } from 'react';
import { useDrawnAfterMount } from '../lib/use-drawn-after-mount';

/**
 * `fallback` in the render that mounts it, `children` in a background render right after: for a
 * list that mounts with its query's answer (lib/use-drawn-after-mount.ts says why).
 */
export function DrawnAfterMount({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return useDrawnAfterMount() ? children : fallback;
}
