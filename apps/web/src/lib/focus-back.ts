/**
 * A Radix dialog's `onCloseAutoFocus` that sends focus back to the element that opened it without
 * scrolling the page. Radix's own modal dialog focuses its Trigger with a plain `focus()`, which
 * scrolls a trigger cut by the top of the window (under the sticky header) into view, and focuses
 * nothing at all when the dialog has no Trigger (focus falls to <body>).
 */
export function focusBackWithoutScroll(opener: () => HTMLElement | null | undefined) {
  return (event: Event) => {
    event.preventDefault();
    const element = opener();
    if (element?.isConnected) element.focus({ preventScroll: true });
  };
}
