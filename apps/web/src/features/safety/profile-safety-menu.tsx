/**
 * The "More" menu on another member's profile: Block / Unblock, Mute / Unmute and Report. Blocking
 * and muting ask first (an alert dialog that says what will happen); undoing them does not, since
 * nothing is lost. Report opens the reason dialog that posts and comments use. The menu's Radix
 * parts (lazy-menu.tsx) and the dialogs load after the profile has painted.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Ban, Ellipsis, Flag, Volume2, VolumeX } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ConfirmDialogOnDemand } from '../../components/ui/confirm-dialog-on-demand';
import { LazyMenu } from '../../components/ui/lazy-menu';
import { ReportDialogOnDemand } from '../reports/report-button';
import type { SafetyAction } from './queries';
import { useSafetyAction } from './use-safety';

interface Target {
  id: string;
  username: string;
  displayName: string;
}

const itemClasses =
  'flex cursor-default select-none items-center gap-2 rounded-md px-3 py-2 text-sm outline-none ' +
  'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4';

export function ProfileSafetyMenu({
  user,
  isBlocking,
  isMuting,
}: {
  user: Target;
  isBlocking: boolean;
  isMuting: boolean;
}) {
  const { t } = useLingui();
  const action = useSafetyAction();
  const [confirming, setConfirming] = useState<'block' | 'mute' | null>(null);
  const [reporting, setReporting] = useState(false);
  const menu = useRef<HTMLSpanElement>(null);

  const run = (kind: SafetyAction) =>
    action.mutate({ action: kind, userId: user.id, username: user.username });

  const username = user.username;
  // What blocking and muting do, asked before either.
  const dialog =
    confirming === 'block'
      ? {
          title: t`Block @${username}?`,
          body: t`You and @${username} will no longer see each other's posts, comments or profile details. They won't be able to follow you, message you, or like or comment on your posts, and follows between you end.`,
          confirm: t`Block`,
        }
      : confirming === 'mute'
        ? {
            title: t`Mute @${username}?`,
            body: t`Posts by @${username} leave your feeds and their notifications stop. They won't know. You can unmute them from this menu or in Settings.`,
            confirm: t`Mute`,
          }
        : null;

  return (
    // `contents`: no box of its own; it only holds the trigger that focus goes back to.
    <span ref={menu} className="contents">
      <LazyMenu
        kind="menu"
        trigger={
          <Button
            variant="outline"
            className="h-9 max-w-12 px-3 sm:h-10"
            aria-label={t`More actions for @${username}`}
            disabled={action.isPending}
          >
            <Ellipsis aria-hidden="true" />
          </Button>
        }
      >
        {({ DropdownMenu }) => (
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-50 min-w-44 rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
          >
            {!isBlocking ? (
              <DropdownMenu.Item
                className={itemClasses}
                onSelect={() => (isMuting ? run('unmute') : setConfirming('mute'))}
              >
                {isMuting ? <Volume2 aria-hidden="true" /> : <VolumeX aria-hidden="true" />}
                {isMuting ? <Trans>Unmute @{username}</Trans> : <Trans>Mute @{username}</Trans>}
              </DropdownMenu.Item>
            ) : null}
            <DropdownMenu.Item
              className={`${itemClasses} ${isBlocking ? '' : 'text-destructive data-[highlighted]:text-destructive'}`}
              onSelect={() => (isBlocking ? run('unblock') : setConfirming('block'))}
            >
              <Ban aria-hidden="true" />
              {isBlocking ? <Trans>Unblock @{username}</Trans> : <Trans>Block @{username}</Trans>}
            </DropdownMenu.Item>
            <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
            <DropdownMenu.Item className={itemClasses} onSelect={() => setReporting(true)}>
              <Flag aria-hidden="true" />
              <Trans>Report @{username}</Trans>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        )}
      </LazyMenu>

      <ReportDialogOnDemand
        targetType="user"
        targetId={user.id}
        subject={`${user.displayName} (@${user.username})`}
        open={reporting}
        onOpenChange={setReporting}
      />
      <ConfirmDialogOnDemand
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={dialog?.title ?? ''}
        description={dialog?.body}
        confirmLabel={dialog?.confirm ?? ''}
        confirmVariant={confirming === 'block' ? 'destructive' : 'default'}
        returnFocus={() => menu.current?.querySelector('button') ?? null}
        onConfirm={() => {
          if (confirming) run(confirming);
          setConfirming(null);
        }}
      />
    </span>
  );
}
