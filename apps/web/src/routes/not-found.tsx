import { Trans, useLingui } from '@lingui/react/macro';
import { Box } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../components/ui/button';
import { useDocumentTitle } from '../lib/document-title';

export default function NotFoundPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Page not found`);
  return (
    <section className="flex flex-col items-center gap-4 py-20 text-center">
      <span className="flex size-16 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
        <Box aria-hidden="true" className="size-8" />
      </span>
      <p className="text-sm font-semibold text-primary">404</p>
      <h1 className="text-3xl font-bold tracking-tight">
        <Trans>Page not found</Trans>
      </h1>
      <p className="max-w-sm text-muted-foreground">
        <Trans>This page does not exist or has moved.</Trans>
      </p>
      <Button asChild>
        <Link to="/">
          <Trans>Go to home</Trans>
        </Link>
      </Button>
    </section>
  );
}
