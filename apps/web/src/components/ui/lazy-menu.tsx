/**
 * A menu, popover or tooltip whose Radix parts load after the first paint: the trigger now, the
 * rest later.
 *
 * The header's account and theme menus, the notifications popover and a post card's menu and
 * ALT popover are on the first page, but none is open when it paints. Radix's menu, popover and
 * tooltip (with floating-ui, react-remove-scroll, focus-scope, roving focus) came to about 11 KB
 * Brotli of its script: they are a chunk of their own (menu-primitives.tsx), loaded when the
 * browser is idle after the first render, and at the latest when the pointer comes over a
 * trigger, or it gets focus or is pressed.
 *
 * Until then `trigger` is drawn as Radix draws it closed (type, aria-haspopup, aria-expanded,
 * data-state; same classes and name), so the server's render, the hydrating one and the one
 * after the chunk arrives look the same. A press that comes before the chunk (pointerdown on a
 * menu's trigger; Enter, Space or ArrowDown on it; a click on a popover's) is remembered and
 * played again on Radix's trigger once it is drawn, which then opens as it always does, focus
 * moved into the menu for a key. A trigger that had focus keeps it across the swap (a tooltip's
 * then shows, as on focus).
 */
import {
  cloneElement,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  type SyntheticEvent,
  startTransition,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useRenderedFor } from '../../lib/server-rendered';
import { whenIdle } from '../../lib/when-idle';

export type MenuPrimitives = typeof import('./menu-primitives');

let primitives: MenuPrimitives | null = null;
let loading: Promise<unknown> | null = null;
const listeners = new Set<() => void>();

/** Starts loading the Radix parts (once; again after a failure). */
export function loadMenuPrimitives(): Promise<unknown> {
  loading ??= import('./menu-primitives').then(
    (module) => {
      primitives = module;
      for (const listener of listeners) listener();
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

let idleScheduled = false;
function loadWhenIdle() {
  if (idleScheduled) return;
  idleScheduled = true;
  whenIdle(() => void loadMenuPrimitives());
}

/**
 * The parts once loaded; null on the server and while hydrating, so both draw the stand-in. The
 * swap to Radix's parts is a transition, which React renders in slices: every card's menu, popover
 * and tooltip turned at once as a store's update (useSyncExternalStore) was one task of 20–50 ms
 * on a desktop's main thread (bench/README.md, "Dialogs on demand"). A trigger pressed before
 * (`pressed`) swaps at once, to open.
 */
function useMenuPrimitives(pressed: () => boolean): MenuPrimitives | null {
  const [parts, setParts] = useState(useRenderedFor() === null ? primitives : null);
  useEffect(() => {
    if (parts) return;
    const swap = () => (pressed() ? setParts(primitives) : startTransition(() => setParts(primitives)));
    if (primitives) swap();
    listeners.add(swap);
    return () => void listeners.delete(swap);
  }, [parts, pressed]);
  return parts;
}

/** A press on the stand-in, to play again on Radix's trigger. */
type Press = { type: 'pointerdown' } | { type: 'keydown'; key: string } | { type: 'click' };

/** The keys that open a Radix dropdown menu from its trigger. */
const MENU_KEYS = ['Enter', ' ', 'ArrowDown'];

function replay(trigger: HTMLElement, press: Press) {
  const init = { bubbles: true, cancelable: true };
  if (press.type === 'click') trigger.click();
  else if (press.type === 'keydown')
    trigger.dispatchEvent(new KeyboardEvent('keydown', { ...init, key: press.key }));
  else {
    const pointer = { ...init, button: 0, pointerType: 'mouse', isPrimary: true };
    trigger.dispatchEvent(
      typeof window.PointerEvent === 'function'
        ? new window.PointerEvent('pointerdown', pointer)
        : new MouseEvent('pointerdown', pointer),
    );
  }
}

type TriggerProps = {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  onClick?: (event: SyntheticEvent<HTMLElement>) => void;
  onFocus?: (event: SyntheticEvent<HTMLElement>) => void;
  onBlur?: (event: SyntheticEvent<HTMLElement>) => void;
};

interface LazyMenuProps {
  /** A dropdown menu (DropdownMenu), a popover (Popover) or a tooltip (Tooltip, tooltip.tsx's). */
  kind: 'menu' | 'popover' | 'tooltip';
  /** The trigger: one element taking a ref and props, as for Radix's `Trigger asChild`. */
  trigger: ReactElement<TriggerProps>;
  /** The Content (portalled here), drawn with the loaded parts. */
  children: (parts: MenuPrimitives) => ReactNode;
  /** Controlled open state, as Radix's Root takes it (uncontrolled when left out). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export function LazyMenu({ kind, trigger, children, open, onOpenChange }: LazyMenuProps) {
  const triggerRef = useRef<HTMLElement>(null);
  const focused = useRef(false);
  const press = useRef<Press | null>(null);
  const parts = useMenuPrimitives(useCallback(() => press.current !== null, []));

  useEffect(loadWhenIdle, []);

  // After the swap (this effect runs after Radix's own, so its listeners are in place).
  useEffect(() => {
    const element = triggerRef.current;
    if (!parts || !element) return;
    if (focused.current) element.focus();
    focused.current = false;
    const pending = press.current;
    press.current = null;
    if (pending) replay(element, pending);
  }, [parts]);

  if (parts) {
    const Radix = kind === 'menu' ? parts.DropdownMenu : kind === 'popover' ? parts.Popover : parts.Tooltip;
    const inner = (
      <>
        <Radix.Trigger asChild ref={triggerRef as Ref<HTMLButtonElement>}>
          {trigger}
        </Radix.Trigger>
        <Radix.Portal>{children(parts)}</Radix.Portal>
      </>
    );
    if (kind === 'tooltip') return <parts.TooltipRoot>{inner}</parts.TooltipRoot>;
    const Root = kind === 'menu' ? parts.DropdownMenu.Root : parts.Popover.Root;
    return (
      <Root open={open} onOpenChange={onOpenChange}>
        {inner}
      </Root>
    );
  }

  const own = trigger.props;
  const load = () => void loadMenuPrimitives();
  // What Radix's Trigger puts on the element while closed (a tooltip's: data-state alone).
  const closed =
    kind === 'tooltip'
      ? { 'data-state': 'closed' }
      : {
          type: 'button',
          'aria-haspopup': kind === 'menu' ? 'menu' : 'dialog',
          'aria-expanded': false,
          'data-state': 'closed',
        };
  return cloneElement(trigger, {
    ref: triggerRef,
    ...closed,
    onPointerEnter: (event) => {
      own.onPointerEnter?.(event);
      load();
    },
    onFocus: (event) => {
      own.onFocus?.(event);
      focused.current = true;
      load();
    },
    onBlur: (event) => {
      own.onBlur?.(event);
      focused.current = false;
    },
    onPointerDown: (event) => {
      own.onPointerDown?.(event);
      load();
      // As Radix's menu trigger: a plain left press opens it, and focus stays where it was.
      if (kind === 'menu' && event.button === 0 && !event.ctrlKey && !event.defaultPrevented) {
        press.current = { type: 'pointerdown' };
        event.preventDefault();
      }
    },
    onKeyDown: (event) => {
      own.onKeyDown?.(event);
      if (kind === 'menu' && MENU_KEYS.includes(event.key) && !event.defaultPrevented) {
        press.current = { type: 'keydown', key: event.key };
        event.preventDefault();
        load();
      }
    },
    onClick: (event) => {
      own.onClick?.(event);
      if (kind === 'popover' && !event.defaultPrevented) {
        press.current = { type: 'click' };
        load();
      }
    },
  } as TriggerProps & Record<string, unknown>);
}
