/**
 * The one mention-aware composer, shared by the home composer, a post's Edit dialog and the comment
 * box: its label (for screen readers), the textarea that offers members after `@`
 * (mention-textarea.tsx), Ctrl/⌘+Enter to send the form it is in (through the form's own submit,
 * so its checks run), and a line under it with the error (`error`: the shared schema's words) and
 * the count of `maxLength` (the trimmed text, as the server counts it) once the text is
 * `counterFrom` long: red past the limit, which also marks the field invalid. The caller lays it
 * out and decides when the form may be sent.
 */
import type { ComponentProps, KeyboardEvent } from 'react';
import { FieldError } from '../../components/form/field-error';
import { cn } from '../../lib/cn';
import { MentionTextarea } from './mention-textarea';

type Props = Omit<
  ComponentProps<typeof MentionTextarea>,
  'id' | 'onKeyDown' | 'aria-invalid' | 'aria-describedby' | 'maxLength'
> & {
  id: string;
  /** The field's name for screen readers ("Write a post"). */
  label: string;
  /** The schema's limit for the trimmed text. */
  maxLength: number;
  /** The count shows once the trimmed text is this long (0: always). */
  counterFrom: number;
  error?: string | null;
};

/** Ctrl+Enter (⌘+Enter on a Mac) sends the form, as its submit button would. */
function sendOnModEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === 'Enter' && (event.metaKey || event.ctrlKey) && !event.nativeEvent.isComposing) {
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  }
}

export function MentionComposer({ id, label, maxLength, counterFrom, error, value, ...props }: Props) {
  const length = value.trim().length;
  const tooLong = length > maxLength;
  const counted = length >= counterFrom;
  const counterId = `${id}-counter`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, counted ? counterId : null].filter(Boolean).join(' ');
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <MentionTextarea
        {...props}
        id={id}
        value={value}
        onKeyDown={sendOnModEnter}
        aria-invalid={error || tooLong ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {error || counted ? (
        <div className="flex items-start gap-2 text-xs">
          <FieldError id={errorId} error={error} />
          {counted ? (
            <p
              id={counterId}
              className={cn(
                'ms-auto shrink-0 tabular-nums',
                tooLong ? 'font-medium text-destructive dark:text-red-400' : 'text-muted-foreground',
              )}
            >
              {length}/{maxLength}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
