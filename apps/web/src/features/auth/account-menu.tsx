import { Trans, useLingui } from '@lingui/react/macro';
import { Bookmark, LogOut, type LucideIcon, Settings, ShieldCheck, User } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Handle } from '../../components/handle';
import { LazyMenu, type MenuPrimitives } from '../../components/ui/lazy-menu';
import { UserAvatar } from '../../components/user-avatar';
import { useAuth } from './auth-provider';
import type { KnownMember } from './last-member';

const itemClasses =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-2 text-sm outline-none transition-colors ' +
  'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 ' +
  '[&_svg]:size-4 [&_svg]:text-muted-foreground';

/** The avatar button in the header and its menu: who you are, Profile, Bookmarks, Settings, Moderation (moderators), Logout. */
export function AccountMenu({ user }: { user: KnownMember }) {
  const { t } = useLingui();
  const { logout, isLoggingOut, isModerator } = useAuth();
  return (
    <LazyMenu
      kind="menu"
      trigger={
        <button
          type="button"
          aria-label={t`Account menu`}
          className="rounded-full p-0.5 transition-shadow hover:ring-2 hover:ring-primary/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=open]:ring-2 data-[state=open]:ring-primary/60"
        >
          <UserAvatar user={user} size={34} />
        </button>
      }
    >
      {({ DropdownMenu }) => (
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="menu-content z-50 min-w-56 max-w-[calc(100vw-2rem)] overflow-hidden rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          <DropdownMenu.Label className="flex items-center gap-3 px-2 py-2">
            <UserAvatar user={user} size={36} decorative />
            <span className="grid min-w-0">
              <span className="truncate text-sm font-semibold">{user.displayName}</span>
              <Handle username={user.username} className="truncate text-xs text-muted-foreground" />
            </span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
          <MenuLink Item={DropdownMenu.Item} to="/profile" icon={User} label={t`Profile`} />
          <MenuLink Item={DropdownMenu.Item} to="/bookmarks" icon={Bookmark} label={t`Bookmarks`} />
          <MenuLink Item={DropdownMenu.Item} to="/settings" icon={Settings} label={t`Settings`} />
          {isModerator ? (
            <MenuLink Item={DropdownMenu.Item} to="/moderation" icon={ShieldCheck} label={t`Moderation`} />
          ) : null}
          <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
          <DropdownMenu.Item className={itemClasses} disabled={isLoggingOut} onSelect={() => void logout()}>
            <LogOut aria-hidden="true" />
            <Trans>Logout</Trans>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      )}
    </LazyMenu>
  );
}

function MenuLink({
  Item,
  to,
  icon: Icon,
  label,
}: {
  Item: MenuPrimitives['DropdownMenu']['Item'];
  to: string;
  icon: LucideIcon;
  label: string;
}) {
  return (
    <Item asChild className={itemClasses}>
      <Link to={to}>
        <Icon aria-hidden="true" />
        {label}
      </Link>
    </Item>
  );
}
