/**
 * The composer's content-warning field (shown once "Content warning" is pressed): what the post
 * is folded behind on every card until a reader presses Show, at most 200 characters. Loaded when
 * first wanted, not with the page.
 */
import { CONTENT_WARNING_MAX } from '@cubes/api/rules';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';

export default function ComposerWarning({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const { t } = useLingui();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>
        <Trans>Content warning</Trans>
      </Label>
      <Input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={CONTENT_WARNING_MAX}
        readOnly={disabled}
        placeholder={t`What readers should know before they open the post`}
        aria-describedby={`${id}-hint`}
        autoFocus
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        <Trans>The text and images stay folded behind it until a reader presses Show.</Trans>{' '}
        <span className="tabular-nums">
          {value.length}/{CONTENT_WARNING_MAX}
        </span>
      </p>
    </div>
  );
}
