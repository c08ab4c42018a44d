/**
 * Member-written text with the words the search matched marked (lib/mark-words.tsx): a user's
 * name, a medium's title. A post result is a post card, whose text marks them too (UserText).
 */

import { cn } from '../../lib/cn';
import { MarkedText } from '../../lib/mark-words';

export { markWords } from '../../lib/mark-words';

export function Highlight({
  text,
  words,
  className,
}: {
  text: string;
  words: readonly string[];
  className?: string;
}) {
  return (
    <span className={cn('user-text', className)}>
      <MarkedText text={text} words={words} />
    </span>
  );
}
