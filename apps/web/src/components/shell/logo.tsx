import { Box } from 'lucide-react';
import { Link } from 'react-router-dom';
import { cn } from '../../lib/cn';
import { PRODUCT_NAME } from '../../lib/document-title';

/** The brand mark: a cube on the violet-to-cyan gradient. Decorative; text carries the name. */
export function CubeLogoMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-primary to-brand-2 text-white shadow-sm',
        className,
      )}
    >
      <Box className="size-[60%]" strokeWidth={2.25} />
    </span>
  );
}

export function Logo() {
  return (
    <Link
      to="/"
      className="flex items-center gap-2 rounded-md font-semibold tracking-tight focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring"
    >
      <CubeLogoMark />
      <span className="text-lg">{PRODUCT_NAME}</span>
    </Link>
  );
}
