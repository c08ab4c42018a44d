/**
 * Copy to the clipboard, for a code block or a whole answer: the button says "Copied" for a
 * moment (and a screen reader hears it), or shows a toast when the browser refuses.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';

const COPIED_MS = 1500;

export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const { t } = useLingui();
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast({
        title: t`Could not copy`,
        description: t`Your browser did not allow it.`,
        variant: 'destructive',
      });
    }
  };
  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={copied ? t`Copied` : label}
      title={label}
      className={cn(
        'inline-flex items-center gap-1 rounded-md px-1.5 py-1 text-xs text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    >
      {copied ? (
        <Check aria-hidden="true" className="size-3.5" />
      ) : (
        <Copy aria-hidden="true" className="size-3.5" />
      )}
      <span>{copied ? <Trans>Copied</Trans> : <Trans>Copy</Trans>}</span>
      <span role="status" className="sr-only">
        {copied ? <Trans>Copied to the clipboard</Trans> : ''}
      </span>
    </button>
  );
}
