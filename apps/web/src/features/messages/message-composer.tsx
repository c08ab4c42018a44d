/**
 * The open conversation's input: Enter sends, Shift+Enter makes a new line (not while an input
 * method is composing); Send is off while the draft is blank or a message is on its way. A member
 * who does not accept messages from the writer gets a line saying so instead.
 */
import { Send } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import type { ChatThreadState } from './use-chat-thread';

type Props = Pick<ChatThreadState, 'name' | 'canMessage' | 'draft' | 'changeDraft' | 'submit' | 'sending'>;

export function MessageComposer({ name, canMessage, draft, changeDraft, submit, sending }: Props) {
  if (!canMessage)
    return (
      <p className="border-t p-4 text-center text-sm text-muted-foreground">
        {name || 'This member'} does not accept messages from you.
      </p>
    );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      className="flex items-end gap-2 border-t p-3"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Textarea
        aria-label="Message"
        placeholder="Type a message..."
        rows={1}
        maxLength={2000}
        value={draft}
        onChange={(event) => changeDraft(event.target.value)}
        onKeyDown={onKeyDown}
        className="max-h-40 min-h-10 resize-none field-sizing-content"
      />
      <Button
        type="submit"
        size="icon"
        aria-label="Send"
        disabled={!draft.trim() || sending}
        className="size-10 shrink-0"
      >
        {sending ? <Spinner /> : <Send aria-hidden="true" />}
      </Button>
    </form>
  );
}
