/**
 * Settings' sections and the links that jump to them (docs/web.md, "Settings"): Profile, Account,
 * Notifications, Privacy, Sessions, Data. Each section has an id (`/settings#privacy` opens the
 * page there); a jump link scrolls to the section and moves the focus to its heading, so keyboard
 * and screen-reader users land where they asked. On a phone the links wrap above the cards; from
 * 1024 px up they stay in a column beside them.
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { type MouseEvent, type ReactNode, useEffect } from 'react';
import { cn } from '../../lib/cn';
import { useServerRendered } from '../../lib/server-rendered';

export const SETTINGS_SECTIONS = [
  { id: 'profile', title: msg`Profile` },
  { id: 'account', title: msg`Account` },
  { id: 'notifications', title: msg`Notifications` },
  { id: 'privacy', title: msg`Privacy` },
  { id: 'sessions', title: msg`Sessions` },
  { id: 'data', title: msg`Data` },
] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

const headingId = (id: SettingsSectionId) => `${id}-section-title`;

/** Scrolls to a section and focuses its heading; false when there is no such section. */
function jumpTo(id: string): boolean {
  const heading = document.getElementById(`${id}-section-title`);
  if (!heading) return false;
  heading.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
  return true;
}

/** The jump links. */
export function SettingsNav({ className }: { className?: string }) {
  const { i18n, t } = useLingui();
  const onClick = (event: MouseEvent<HTMLAnchorElement>, id: SettingsSectionId) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    window.history.replaceState(window.history.state, '', `#${id}`);
    jumpTo(id);
  };
  return (
    <nav aria-label={t`Settings sections`} className={className}>
      <ul className="flex flex-wrap gap-2 lg:flex-col lg:gap-1">
        {SETTINGS_SECTIONS.map((section) => (
          <li key={section.id}>
            <a
              href={`#${section.id}`}
              onClick={(event) => onClick(event, section.id)}
              className="inline-flex h-9 items-center rounded-full border bg-card px-3 text-sm font-medium text-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring lg:w-full lg:rounded-md lg:border-transparent lg:bg-transparent"
            >
              {i18n._(section.title)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A section of the page: its heading (the jump's target) and its cards. */
export function SettingsSection({ id, children }: { id: SettingsSectionId; children: ReactNode }) {
  const { i18n } = useLingui();
  const section = SETTINGS_SECTIONS.find((candidate) => candidate.id === id);
  const title = section ? i18n._(section.title) : id;
  return (
    <section id={id} className="grid scroll-mt-24 gap-4">
      <h2
        id={headingId(id)}
        tabIndex={-1}
        className={cn(
          'scroll-mt-24 rounded-sm text-sm font-semibold tracking-wide text-muted-foreground uppercase',
          'focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring',
        )}
      >
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * Whether the member has pressed a key or a button, or scrolled, since this module ran (on a page
 * the server rendered: before it hydrated). Chromium's own record of that
 * (`navigator.userActivation.hasBeenActive`) is already true on a page opened by its address bar.
 */
let memberActed = false;
if (typeof window !== 'undefined') {
  const acted = () => {
    memberActed = true;
  };
  for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const) {
    window.addEventListener(type, acted, { capture: true, passive: true, once: true });
  }
}

/**
 * Opens the page at the section its address names (`/settings#privacy`), once it is drawn: scrolls
 * to its heading and focuses it.
 *
 * A page the server rendered hydrates a while after it shows. The browser has already scrolled to
 * the section as it read the HTML (the section's scroll margin keeps it below the header), but the
 * cards above it grow as they hydrate, so the jump is made again then, unless the member has
 * already acted: a key, a press or a scroll, or a focus they placed. Moving the focus then would
 * take it from where they put it (it closed the theme menu under an e2e test's keys).
 */
export function useJumpToHash(ready: boolean): void {
  const rendered = useServerRendered();
  useEffect(() => {
    if (!ready || (rendered && (memberActed || focusPlaced()))) return;
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) jumpTo(id);
  }, [ready, rendered]);
}

function focusPlaced(): boolean {
  const active = document.activeElement;
  return active !== null && active !== document.body;
}
