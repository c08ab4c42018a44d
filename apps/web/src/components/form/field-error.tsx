/**
 * A field's error under it (the composers' and the chat boxes'): the schema's message, announced
 * (an alert: a send that did nothing says why), with the id the field names in its
 * `aria-describedby`; nothing when there is none.
 */
import { cn } from '../../lib/cn';

export function FieldError({
  id,
  error,
  className,
}: {
  id: string;
  error?: string | null;
  className?: string;
}) {
  if (!error) return null;
  return (
    <p
      id={id}
      role="alert"
      className={cn('min-w-0 text-xs font-medium text-destructive dark:text-red-400', className)}
    >
      {error}
    </p>
  );
}
