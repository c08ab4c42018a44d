/**
 * A textarea that offers members after `@` (the composer's and the comment box's): a textbox with
 * a list to complete from (`aria-autocomplete`, `aria-activedescendant`; ARIA allows a textarea no
 * combobox role) whose listbox shows the members the writer follows first (mentions.suggest). Arrow
 * keys move, Enter or Tab choose, Escape closes; choosing writes `@username ` in place of what
 * was typed. The `@` being typed is found by the server's own parser (`@cubes/api/text-links`).
 * The list hangs below the field, or above it where the space below (down to the phone's tab
 * bar) is short, as a comment box low on a phone's screen has (floating-ui's flip and size).
 */
import { mentionAt } from '@cubes/api/text-links';
import { autoUpdate, flip, offset, size, useFloating } from '@floating-ui/react-dom';
import { Trans, useLingui } from '@lingui/react/macro';
import { type ComponentProps, type KeyboardEvent, useId, useRef, useState } from 'react';
import { Handle } from '../../components/handle';
import { Textarea } from '../../components/ui/textarea';
import { UserAvatar } from '../../components/user-avatar';
import { cn } from '../../lib/cn';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useMediaQuery } from '../../lib/use-media-query';
import { useMentionSuggestionsQuery } from './queries';

const SUGGEST_DEBOUNCE_MS = 120;
/** The sticky header's height, and the phone's tab bar's (h-16 both), plus a gap. */
const HEADER_PX = 64 + 8;
const TAB_BAR_PX = 64 + 8;
const LIST_MAX_PX = 256;

/**
 * Whether `target` is a mention field with its list open: a dialog around it leaves Escape to the
 * list (Radix hears Escape on the document before the field does).
 */
export function isChoosingMention(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.hasAttribute('data-mention-list-open');
}

type Props = Omit<ComponentProps<'textarea'>, 'value' | 'onChange'> & {
  value: string;
  onValueChange: (value: string) => void;
  /** only members can be offered (the suggestions need a session) */
  enabled: boolean;
};

export function MentionTextarea({ value, onValueChange, enabled, onKeyDown, className, ...props }: Props) {
  const listId = useId();
  const { t } = useLingui();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const typing = enabled ? mentionAt(value, caret) : null;
  const query = useDebouncedValue(typing?.query ?? null, SUGGEST_DEBOUNCE_MS);
  const suggest = useMentionSuggestionsQuery(query ?? '', query !== null && typing !== null);
  // The answer may be for an earlier, shorter query (the debounce, or the previous answer kept
  // while the next loads): offer only its members the typed text still fits (the server matches
  // the start of the username), so Enter never picks someone the writer has typed past.
  const typed = typing?.query.toLowerCase() ?? '';
  const current = !suggest.isPlaceholderData && query === typing?.query;
  const users =
    typing && dismissedAt !== typing.start
      ? (suggest.data?.users ?? []).filter((u) => current || u.username.toLowerCase().startsWith(typed))
      : [];
  const open = users.length > 0;
  const index = Math.min(active, Math.max(users.length - 1, 0));
  const optionId = (i: number) => `${listId}-option-${i}`;
  const wide = useMediaQuery('(min-width: 768px)', true);
  const padding = { top: HEADER_PX, bottom: wide ? 8 : TAB_BAR_PX };
  const { refs, floatingStyles } = useFloating({
    open,
    placement: 'bottom-start',
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(4),
      flip({ padding }),
      size({
        padding,
        apply({ availableHeight, elements }) {
          elements.floating.style.maxHeight = `${Math.max(96, Math.min(LIST_MAX_PX, availableHeight))}px`;
        },
      }),
    ],
  });

  const track = () => {
    const at = ref.current?.selectionStart ?? value.length;
    if (at !== caret) setCaret(at);
  };

  const choose = (username: string) => {
    if (!typing) return;
    const before = value.slice(0, typing.start);
    const after = value.slice(typing.start + 1 + typing.query.length);
    const inserted = `@${username} `;
    const next = before + inserted + after.replace(/^ /, '');
    onValueChange(next);
    const at = before.length + inserted.length;
    setCaret(at);
    setActive(0);
    requestAnimationFrame(() => {
      const field = ref.current;
      // Only if nothing was typed meanwhile: a fast typist's next keys stay where they went.
      if (!field || field.value !== next) return;
      field.focus();
      field.setSelectionRange(at, at);
    });
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((index + step + users.length) % users.length);
        return;
      }
      if (
        (event.key === 'Enter' && !event.shiftKey && !event.metaKey && !event.ctrlKey) ||
        event.key === 'Tab'
      ) {
        const user = users[index];
        if (user) {
          event.preventDefault();
          choose(user.username);
          return;
        }
      }
      if (event.key === 'Escape') {
        // Closes the list only, not a dialog around it.
        event.preventDefault();
        event.stopPropagation();
        setDismissedAt(typing?.start ?? null);
        return;
      }
    }
    onKeyDown?.(event);
  };

  return (
    <div ref={refs.setReference} className="relative grid">
      <Textarea
        {...props}
        ref={ref}
        value={value}
        onChange={(event) => {
          onValueChange(event.target.value);
          setCaret(event.target.selectionStart ?? event.target.value.length);
          setActive(0);
          // Typing on after Escape offers again.
          setDismissedAt(null);
        }}
        onSelect={track}
        onClick={track}
        onKeyUp={track}
        onKeyDown={keyDown}
        aria-autocomplete={enabled ? 'list' : undefined}
        aria-haspopup={enabled ? 'listbox' : undefined}
        aria-controls={enabled ? listId : undefined}
        aria-activedescendant={open ? optionId(index) : undefined}
        data-mention-list-open={open || undefined}
        className={className}
      />
      {enabled ? (
        <div
          // Positioned only while open: floating-ui measures the page when the list mounts and
          // again on every scroll and resize while it is attached, work wasted on a hidden list
          // (a forced layout of the whole feed under the composer as the home page appears).
          ref={open ? refs.setFloating : undefined}
          id={listId}
          role="listbox"
          aria-label={t`Members to mention`}
          hidden={!open}
          style={floatingStyles}
          className="z-50 w-72 max-w-full overflow-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
        >
          {users.map((user, i) => (
            <div
              key={user.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === index}
              // Keeps the focus in the textarea.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(user.username)}
              // The textarea keeps the focus; this is for a pointer that moved it here anyway.
              onKeyDown={(event) => {
                if (event.key === 'Enter') choose(user.username);
              }}
              tabIndex={-1}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm',
                i === index && 'bg-accent text-accent-foreground',
              )}
            >
              <UserAvatar user={user} size={24} decorative />
              <span className="grid min-w-0">
                <span className="truncate font-medium">{user.displayName}</span>
                <span className="truncate text-xs text-muted-foreground">
                  <Handle username={user.username} />
                  {user.isFollowing ? (
                    <>
                      {' · '}
                      <Trans comment="Beside a member the writer follows, in the list of members to mention">
                        following
                      </Trans>
                    </>
                  ) : null}
                </span>
              </span>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
