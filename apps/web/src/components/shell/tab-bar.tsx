import { useLingui } from '@lingui/react/macro';
import { NavLink } from 'react-router-dom';
import { ChatUnreadBadge, ChatUnreadText } from '../../features/messages/chat-unread-badge';
import { cn } from '../../lib/cn';
import { NAV_ITEMS } from './nav-items';

/** Below md the main links move to a fixed bottom tab bar (the layout pads the page to match). */
export function TabBar() {
  const { i18n, t } = useLingui();
  return (
    <nav
      aria-label={t`Tab bar`}
      className="fixed inset-x-0 bottom-0 z-40 border-t bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <ul className="mx-auto grid max-w-lg grid-cols-5">
        {NAV_ITEMS.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <NavLink
              to={to}
              end={to === '/'}
              aria-describedby={to === '/chat' ? 'tab-chat-unread' : undefined}
              className={({ isActive }) =>
                cn(
                  'flex h-16 flex-col items-center justify-center gap-1 text-[11px] font-medium transition-colors focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-ring',
                  isActive ? 'text-primary' : 'text-muted-foreground hover:text-foreground',
                )
              }
            >
              {({ isActive }) => (
                <>
                  <span className="relative">
                    <Icon aria-hidden="true" className="size-5" strokeWidth={isActive ? 2.4 : 2} />
                    {to === '/chat' ? <ChatUnreadBadge className="absolute -top-2 -end-3" /> : null}
                  </span>
                  <span>{i18n._(label)}</span>
                </>
              )}
            </NavLink>
            {to === '/chat' ? <ChatUnreadText id="tab-chat-unread" /> : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
