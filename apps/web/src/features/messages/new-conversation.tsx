/**
 * Starting a conversation from the Chat page: a dialog that searches members as you type (the
 * `@` suggestions: members the caller follows first; nobody blocked either way, suspended or
 * deleted is offered, and the server refuses a message to them anyway) and opens the thread with
 * the one picked.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { MessageSquarePlus } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useState } from 'react';
import { Handle } from '../../components/handle';
import { Button } from '../../components/ui/button';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useMemberSearchQuery } from './chat-queries';

export const MEMBER_SEARCH_DEBOUNCE_MS = 200;

/** What the suggestions take: a username's start, without the `@` or anything a username cannot hold. */
export function memberQuery(typed: string): string {
  return typed
    .replace(/^\s*@/, '')
    .replace(/[^A-Za-z0-9_]/g, '')
    .slice(0, 30);
}

export function NewConversationButton({ onPick }: { onPick: (userId: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="ghost" size="sm" className="h-8 px-2">
          <MessageSquarePlus aria-hidden="true" />
          <Trans>New message</Trans>
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 overflow-hidden rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
          <div className="grid gap-1.5 pe-8">
            <Dialog.Title className="text-lg font-semibold tracking-tight">
              <Trans>New message</Trans>
            </Dialog.Title>
            <Dialog.Description className="text-sm text-muted-foreground">
              <Trans>Find a member by their username.</Trans>
            </Dialog.Description>
          </div>
          {open ? (
            <MemberPicker
              onPick={(userId) => {
                setOpen(false);
                onPick(userId);
              }}
            />
          ) : null}
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function MemberPicker({ onPick }: { onPick: (userId: string) => void }) {
  const { t } = useLingui();
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const q = useDebouncedValue(memberQuery(typed), MEMBER_SEARCH_DEBOUNCE_MS);
  const found = useMemberSearchQuery(q);
  const users = found.data?.users ?? [];
  return (
    <div className="grid min-h-0 gap-3">
      <label htmlFor={inputId} className="sr-only">
        <Trans>Search members</Trans>
      </label>
      <Input
        id={inputId}
        type="search"
        autoComplete="off"
        placeholder={t`Search members...`}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      <div className="max-h-[50dvh] min-h-24 overflow-y-auto">
        {found.isPending ? (
          <p
            role="status"
            className="flex items-center justify-center gap-2 py-6 text-sm text-muted-foreground"
          >
            <Spinner /> <Trans>Searching...</Trans>
          </p>
        ) : found.isError ? (
          <p role="alert" className="py-6 text-center text-sm text-muted-foreground">
            <Trans>Search failed</Trans>
          </p>
        ) : users.length === 0 ? (
          <p role="status" className="py-6 text-center text-sm text-muted-foreground">
            {q ? t`No members found` : t`Type a username to find a member.`}
          </p>
        ) : (
          <ul aria-label={t`Members`} className="grid gap-1">
            {users.map((u) => (
              <li key={u.id}>
                <button
                  type="button"
                  onClick={() => onPick(u.id)}
                  className="flex w-full items-center gap-3 rounded-md px-2 py-2 text-start transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <UserAvatar user={u} size={36} decorative />
                  <span className="grid min-w-0">
                    <span className="truncate font-medium">{u.displayName}</span>
                    <Handle username={u.username} className="truncate text-xs text-muted-foreground" />
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
