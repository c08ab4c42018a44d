/**
 * The Cubey chat's message box: Enter sends, Shift+Enter makes a new line; a draft the send's
 * schema refuses (Enter on an empty one, one too long) says why under it (use-cubey-chat.ts,
 * useZodForm); beside Send, Stop while an answer is being written, or Regenerate once the last one
 * is; the tokens used (cubey-usage.tsx).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { RefreshCw, SendHorizontal, Square } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { FieldError } from '../../components/form/field-error';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { CubeyUsageLine } from './cubey-usage';
import type { CubeyChatState } from './use-cubey-chat';

export function ChatComposer({ chat }: { chat: CubeyChatState }) {
  const { t } = useLingui();
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    }
  };
  const errorId = `${chat.draftId}-error`;
  return (
    <form onSubmit={chat.submit} noValidate className="grid gap-2">
      <Textarea
        id={chat.draftId}
        aria-label={t`Message Cubey`}
        placeholder={t`Ask Cubey anything...`}
        value={chat.draft}
        rows={2}
        onChange={(e) => chat.setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={chat.draftError ? true : undefined}
        aria-describedby={chat.draftError ? errorId : undefined}
        className="max-h-48 min-h-16 resize-y"
      />
      <FieldError id={errorId} error={chat.draftError} />
      <div className="flex flex-wrap items-center justify-end gap-2">
        <div className="me-auto grid gap-0.5">
          <span className="text-xs text-muted-foreground">
            <Trans>Enter sends · Shift+Enter makes a new line</Trans>
          </span>
          <CubeyUsageLine />
        </div>
        {chat.streaming ? (
          <Button variant="outline" onClick={chat.stop} disabled={chat.isStopping}>
            <Square aria-hidden="true" /> <Trans>Stop</Trans>
          </Button>
        ) : chat.lastAnswer && chat.sessionId ? (
          <Button variant="outline" onClick={chat.regenerate} disabled={chat.busy}>
            <RefreshCw aria-hidden="true" /> <Trans>Regenerate</Trans>
          </Button>
        ) : null}
        <Button type="submit" disabled={!chat.canSend}>
          {chat.isSending ? <Spinner /> : <SendHorizontal aria-hidden="true" className="rtl:-scale-x-100" />}{' '}
          <Trans>Send</Trans>
        </Button>
      </div>
    </form>
  );
}
