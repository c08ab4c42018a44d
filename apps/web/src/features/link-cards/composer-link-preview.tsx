/**
 * The composer's line under a text with a link: whether its first link will get a preview card,
 * and the switch to leave it out (or bring it back). Loaded when a link is first typed.
 */
import { Trans } from '@lingui/react/macro';
import { Link2, Link2Off } from 'lucide-react';
import { Button } from '../../components/ui/button';

export default function ComposerLinkPreview({
  on,
  onToggle,
  disabled,
}: {
  on: boolean;
  onToggle: () => void;
  disabled: boolean;
}) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
      {on ? (
        <Link2 aria-hidden="true" className="size-4" />
      ) : (
        <Link2Off aria-hidden="true" className="size-4" />
      )}
      <span>{on ? <Trans>The first link gets a preview.</Trans> : <Trans>No link preview.</Trans>}</span>
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-6 px-0"
        onClick={onToggle}
        disabled={disabled}
      >
        {on ? <Trans>Remove link preview</Trans> : <Trans>Show link preview</Trans>}
      </Button>
    </p>
  );
}
