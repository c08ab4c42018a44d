/**
 * While a Radix modal layer is open (a dialog, a menu, a select), the `aria-hidden` package hides
 * the rest of the page from assistive technology: `aria-hidden="true"` plus a `data-aria-hidden`
 * marker on each region it hid. Those regions still hold links and buttons, which axe reports as
 * `aria-hidden-focus` (hidden yet focusable). This makes each such region `inert` as well, and
 * lifts it when the layer closes; an `inert` set by anything else is left alone.
 */
const MARK = 'data-inert-hidden';

function sync(element: Element): void {
  if (element.getAttribute('data-aria-hidden') === 'true' && element.getAttribute('aria-hidden') === 'true') {
    if (!element.hasAttribute('inert')) {
      element.setAttribute('inert', '');
      element.setAttribute(MARK, '');
    }
  } else if (element.hasAttribute(MARK)) {
    element.removeAttribute('inert');
    element.removeAttribute(MARK);
  }
}

/** Starts following `root`'s subtree; returns the function that stops it. */
export function inertWhileHidden(root: Element = document.body): () => void {
  const observer = new MutationObserver((records) => {
    for (const record of records) if (record.target instanceof Element) sync(record.target);
  });
  observer.observe(root, {
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-hidden', 'data-aria-hidden'],
  });
  return () => observer.disconnect();
}
