/**
 * The Cubey chat's message box: Enter sends, Shift+Enter makes a new line; beside Send, Stop while
 * an answer is being written, or Regenerate once the last one is; the tokens used (cubey-usage.tsx).
 */
import { CUBEY_MESSAGE_MAX_LENGTH } from '@cubes/api/schemas';
import { RefreshCw, SendHorizontal, Square } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { CubeyUsageLine } from './cubey-usage';
import type { CubeyChatState } from './use-cubey-chat';

export function ChatComposer({ chat }: { chat: CubeyChatState }) {
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      chat.submit();
    }
  };
  return (
    <form onSubmit={chat.submit} className="grid gap-2">
      <Textarea
        aria-label="Message Cubey"
        placeholder="Ask Cubey anything..."
        value={chat.draft}
        maxLength={CUBEY_MESSAGE_MAX_LENGTH}
        rows={2}
        onChange={(e) => chat.setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        className="max-h-48 min-h-16 resize-y"
      />
      <div className="flex flex-wrap items-center justify-end gap-2">
        <div className="mr-auto grid gap-0.5">
          <span className="text-xs text-muted-foreground">Enter sends · Shift+Enter makes a new line</span>
          <CubeyUsageLine />
        </div>
        {chat.streaming ? (
          <Button variant="outline" onClick={chat.stop} disabled={chat.isStopping}>
            <Square aria-hidden="true" /> Stop
          </Button>
        ) : chat.lastAnswer && chat.sessionId ? (
          <Button variant="outline" onClick={chat.regenerate} disabled={chat.busy}>
            <RefreshCw aria-hidden="true" /> Regenerate
          </Button>
        ) : null}
        <Button type="submit" disabled={!chat.canSend}>
          {chat.isSending ? <Spinner /> : <SendHorizontal aria-hidden="true" />} Send
        </Button>
      </div>
    </form>
  );
}
