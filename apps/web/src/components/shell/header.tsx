import { Trans, useLingui } from '@lingui/react/macro';
import { NavLink } from 'react-router-dom';
import { AccountMenu } from '../../features/auth/account-menu';
import { useAuth } from '../../features/auth/auth-provider';
import { LanguageMenu } from '../../features/language/language-menu';
import { ChatUnreadBadge, ChatUnreadText } from '../../features/messages/chat-unread-badge';
import { MessagesLive } from '../../features/messages/messages-live';
import { NotificationsBell } from '../../features/notifications/notifications-bell';
import { ThemeToggle } from '../../features/theme/theme-toggle';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';
import { Logo } from './logo';
import { NAV_ITEMS } from './nav-items';

function SessionControls() {
  const { user, status } = useAuth();
  // While the session check runs, hold the space so the header does not jump.
  if (status === 'loading')
    return <span aria-hidden="true" className="size-9 animate-pulse rounded-full bg-muted" />;
  if (user) {
    return (
      <>
        <MessagesLive />
        <NotificationsBell />
        <AccountMenu user={user} />
      </>
    );
  }
  return (
    <Button asChild size="sm">
      <NavLink to="/auth">
        <Trans>Login</Trans>
      </NavLink>
    </Button>
  );
}

export function Header() {
  const { i18n, t } = useLingui();
  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <Logo />
        <nav aria-label={t`Main navigation`} className="ms-6 hidden md:block">
          <ul className="flex items-center gap-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.to === '/'}
                  aria-describedby={item.to === '/chat' ? 'nav-chat-unread' : undefined}
                  className={({ isActive }) =>
                    cn(
                      'flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring',
                      isActive
                        ? 'bg-accent text-accent-foreground'
                        : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
                    )
                  }
                >
                  {i18n._(item.label)}
                  {item.to === '/chat' ? <ChatUnreadBadge /> : null}
                </NavLink>
                {item.to === '/chat' ? <ChatUnreadText id="nav-chat-unread" /> : null}
              </li>
            ))}
          </ul>
        </nav>
        <div className="ms-auto flex items-center gap-2">
          <LanguageMenu />
          <ThemeToggle />
          <SessionControls />
        </div>
      </div>
    </header>
  );
}
