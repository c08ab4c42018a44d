/** The Cubes panels that are not Cubey: Xcube's local composer and the placeholders. */
import { Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Textarea } from '../../components/ui/textarea';
import { UserText } from '../../components/user-text';

const SAMPLE_POST =
  'Just stacked my 100th cube in the Cubes AI community 🧊 Who else is building something today? #cubes #ai';

/** Xcube: drafts a post for X, locally only; nothing is sent anywhere. */
export function XcubePanel() {
  const [draft, setDraft] = useState(SAMPLE_POST);
  const [preview, setPreview] = useState(SAMPLE_POST);
  const fieldId = useId();
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        Draft a post and preview it. Xcube works on this device only: nothing is sent.
      </p>
      <div className="grid gap-2">
        <label htmlFor={fieldId} className="text-sm font-medium">
          Your post
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
          Preview
        </Button>
      </div>
      <section aria-label="Preview" className="min-w-0 rounded-lg border bg-background p-4">
        <p className="text-sm font-semibold">Sample post</p>
        <UserText text={preview} className="mt-1 text-sm" />
      </section>
    </div>
  );
}

export function GenerationPlaceholder({ name }: { name: string }) {
  return (
    <Placeholder
      title={name}
      text={`${name} needs an AI generation service, and none is set up on this server yet.`}
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
