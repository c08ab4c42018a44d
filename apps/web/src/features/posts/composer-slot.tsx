/**
 * The composer validates with the shared zod schemas; zod is kept out of the first paint (see
 * app.tsx), so the composer's code arrives right after, behind a placeholder of the same size.
 */
import { Suspense } from 'react';
import { Card } from '../../components/ui/card';
import { lazyPart } from '../../lib/lazy-part';

const Composer = lazyPart('composer', () => import('./composer').then((m) => m.Composer));

function ComposerPlaceholder() {
  return (
    <Card aria-hidden="true" className="grid gap-3 p-4 sm:p-5">
      <div className="h-24 rounded-md border border-input bg-background" />
      <div className="h-9" />
    </Card>
  );
}

export function ComposerSlot() {
  return (
    <Suspense fallback={<ComposerPlaceholder />}>
      <Composer />
    </Suspense>
  );
}
