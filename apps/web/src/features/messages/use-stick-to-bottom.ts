/**
 * Keeps a scrolling list pinned to its newest item, the way a chat thread reads: each new last
 * item scrolls into view, unless the reader has scrolled up to read older ones; then `newBelow`
 * says something arrived and `toBottom` jumps to it.
 */
import { useLayoutEffect, useRef, useState } from 'react';

/** How close to the bottom (in pixels) still counts as "at the bottom". */
const NEAR_BOTTOM_PX = 48;

/**
 * `lastKey` changes whenever the last item does; `follow` scrolls to it even when the reader is
 * up in the history (their own message, say). The first key always scrolls to the bottom.
 */
export function useStickToBottom<T extends HTMLElement>(lastKey: string, follow: boolean) {
  const ref = useRef<T>(null);
  const atBottom = useRef(true);
  const previousKey = useRef('');
  const [newBelow, setNewBelow] = useState(false);

  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || lastKey === previousKey.current) return;
    const first = previousKey.current === '';
    previousKey.current = lastKey;
    if (first || atBottom.current || follow) {
      box.scrollTop = box.scrollHeight;
      setNewBelow(false);
    } else {
      setNewBelow(true);
    }
  }, [lastKey, follow]);

  const onScroll = () => {
    const box = ref.current;
    if (!box) return;
    atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_BOTTOM_PX;
    if (atBottom.current) setNewBelow(false);
  };

  const toBottom = () => {
    const box = ref.current;
    if (box) box.scrollTop = box.scrollHeight;
    setNewBelow(false);
  };

  return { ref, onScroll, newBelow, toBottom };
}
