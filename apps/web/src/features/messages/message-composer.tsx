/**
 * The open conversation's input: Enter sends, Shift+Enter makes a new line (not while an input
 * method is composing); Send is off while the draft is blank or a message is on its way. A draft
 * the send's schema refuses (Enter on an empty one, one too long) says why under the field
 * (use-chat-thread.ts, useZodForm). A member who does not accept messages from the writer gets a
 * line saying so instead.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Send } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { FieldError } from '../../components/form/field-error';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import type { ChatThreadState } from './use-chat-thread';

type Props = Pick<
  ChatThreadState,
  'name' | 'canMessage' | 'draft' | 'draftId' | 'draftError' | 'changeDraft' | 'submit' | 'sending'
>;

export function MessageComposer({
  name,
  canMessage,
  draft,
  draftId,
  draftError,
  changeDraft,
  submit,
  sending,
}: Props) {
  const { t } = useLingui();
  if (!canMessage)
    return (
      <p className="border-t p-4 text-center text-sm text-muted-foreground">
        {name ? (
          <Trans>{name} does not accept messages from you.</Trans>
        ) : (
          <Trans>This member does not accept messages from you.</Trans>
        )}
      </p>
    );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    }
  };
  const errorId = `${draftId}-error`;

  return (
    <form className="grid gap-1 border-t p-3" onSubmit={submit} noValidate>
      <div className="flex items-end gap-2">
        <Textarea
          id={draftId}
          aria-label={t`Message`}
          aria-invalid={draftError ? true : undefined}
          aria-describedby={draftError ? errorId : undefined}
          placeholder={t`Type a message...`}
          rows={1}
          value={draft}
          onChange={(event) => changeDraft(event.target.value)}
          onKeyDown={onKeyDown}
          className="max-h-40 min-h-10 resize-none field-sizing-content"
        />
        <Button
          type="submit"
          size="icon"
          aria-label={t`Send`}
          disabled={!draft.trim() || sending}
          className="size-10 shrink-0"
        >
          {sending ? <Spinner /> : <Send aria-hidden="true" className="rtl:-scale-x-100" />}
        </Button>
      </div>
      <FieldError id={errorId} error={draftError} />
    </form>
  );
}
