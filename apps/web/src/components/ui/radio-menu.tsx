/**
 * A header menu of one choice among a few (the theme, the language): an icon button whose name
 * says the current choice ("Theme: Dark"), opening a labelled group of radio items with a check
 * on the chosen one. Its Radix parts load after the first paint (LazyMenu).
 */
import { Check } from 'lucide-react';
import type { ReactElement, ReactNode } from 'react';
import { buttonClasses } from './button';
import { LazyMenu } from './lazy-menu';

const itemClasses =
  'relative flex cursor-pointer select-none items-center gap-2 rounded-md py-2 pe-8 ps-2 text-sm outline-none transition-colors ' +
  'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4';

export interface RadioMenuItem<T extends string> {
  value: T;
  /** What the item shows (its icon and words). */
  content: ReactNode;
  /** The item's own language, when it is named in it (a language menu). */
  lang?: string;
}

export function RadioMenu<T extends string>({
  label,
  heading,
  icon,
  value,
  items,
  onChoose,
}: {
  /** The button's name, saying the current choice. */
  label: string;
  /** The menu's heading. */
  heading: ReactNode;
  icon: ReactElement;
  value: T;
  items: readonly RadioMenuItem<T>[];
  onChoose: (value: T) => void;
}) {
  return (
    <LazyMenu
      kind="menu"
      trigger={
        <button type="button" aria-label={label} title={label} className={buttonClasses('ghost', 'icon')}>
          {icon}
        </button>
      }
    >
      {({ DropdownMenu }) => (
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="menu-content z-50 min-w-40 overflow-hidden rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-muted-foreground">
            {heading}
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={value}
            onValueChange={(next) => {
              const item = items.find((candidate) => candidate.value === next);
              if (item) onChoose(item.value);
            }}
          >
            {items.map((item) => (
              <DropdownMenu.RadioItem
                key={item.value}
                value={item.value}
                lang={item.lang}
                className={itemClasses}
              >
                {/* A language's name in its own direction, the row in the page's: every name
                    starts on the same side, and the check sits at the end of each row. */}
                {item.lang ? <span dir="auto">{item.content}</span> : item.content}
                <DropdownMenu.ItemIndicator className="absolute end-2 inline-flex">
                  <Check aria-hidden="true" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      )}
    </LazyMenu>
  );
}
