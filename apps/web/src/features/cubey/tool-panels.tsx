/** The Cubes panels that are not Cubey: Xcube's local composer and the placeholders. */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Textarea } from '../../components/ui/textarea';
import { UserText } from '../../components/user-text';

// A sample in the member's language: the draft starts from it, and they write over it.
const SAMPLE_POST = msg`Just stacked my 100th cube in the Cubes AI community 🧊 Who else is building something today? #cubes #ai`;

/** Xcube: drafts a post for X, locally only; nothing is sent anywhere. */
export function XcubePanel() {
  const { i18n, t } = useLingui();
  const [draft, setDraft] = useState(() => i18n._(SAMPLE_POST));
  const [preview, setPreview] = useState(() => i18n._(SAMPLE_POST));
  const fieldId = useId();
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        <Trans>Draft a post and preview it. Xcube works on this device only: nothing is sent.</Trans>
      </p>
      <div className="grid gap-2">
        <label htmlFor={fieldId} className="text-sm font-medium">
          <Trans>Your post</Trans>
        </label>
        <Textarea
          id={fieldId}
          value={draft}
          maxLength={280}
          rows={4}
          onChange={(e) => setDraft(e.target.value)}
        />
      </div>
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-muted-foreground">{draft.length}/280</span>
        <Button onClick={() => setPreview(draft)} disabled={draft.trim() === ''}>
          <Trans>Preview</Trans>
        </Button>
      </div>
      <section aria-label={t`Preview`} className="min-w-0 rounded-lg border bg-background p-4">
        <p className="text-sm font-semibold">
          <Trans>Sample post</Trans>
        </p>
        <UserText text={preview} className="mt-1 text-sm" />
      </section>
    </div>
  );
}

export function GenerationPlaceholder({ name }: { name: string }) {
  const { t } = useLingui();
  return (
    <Placeholder
      title={name}
      text={t`${name} needs an AI generation service, and none is set up on this server yet.`}
    />
  );
}

export function Placeholder({ title, text }: { title: string; text: string }) {
  return (
    <div className="grid place-items-center gap-3 px-4 py-12 text-center">
      <Sparkles aria-hidden="true" className="size-8 text-primary" />
      <h3 className="text-lg font-semibold">{title}</h3>
      <p className="max-w-md text-sm text-muted-foreground">{text}</p>
    </div>
  );
}
