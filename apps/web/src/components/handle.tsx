/**
 * A member's `@username`, or a `#tag`, as a label of its own (a card's header, a list row, a tag
 * page's title). Written left to right whatever the page's direction: in the Arabic app a bare
 * `@chen` would be laid out as `chen@`, its `@` taking the page's right-to-left direction. A
 * username is Latin letters, digits and `_` (@cubes/api/text-links), so its direction is always
 * left to right. A tag may be Arabic, so it takes its own (`dir="auto"`). Inside a sentence
 * (`<Trans>Block @{username}</Trans>`) the handle stays part of the translated words.
 */
import type { ReactNode } from 'react';

export function Handle({ username, className }: { username: string; className?: string }) {
  // The left-to-right part is inline, inside a box that keeps the page's direction: as a grid or
  // flex item (a list row's second line), the box itself must still align to the page's start.
  return (
    <span className={className}>
      <span dir="ltr">@{username}</span>
    </span>
  );
}

export function TagName({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span dir="auto" className={className}>
      #{children}
    </span>
  );
}
