import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';
import { useHydrated } from '../../lib/server-rendered';

/**
 * Callers set the height (min-h-*, rows or field-sizing-content): no default to fight with.
 * Read-only until the app has hydrated a page the server rendered: what is typed before would be
 * lost to the hydrating render (lib/server-rendered.tsx, useHydrated).
 */
export function Textarea({ className, readOnly, ...props }: ComponentProps<'textarea'>) {
  const hydrated = useHydrated();
  return (
    <textarea
      className={cn(
        'flex w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs transition-colors md:text-sm',
        'placeholder:text-muted-foreground focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/40',
        'disabled:cursor-not-allowed disabled:opacity-60',
        'aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive/40',
        className,
      )}
      readOnly={readOnly || !hydrated}
      {...props}
    />
  );
}
