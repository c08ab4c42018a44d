/**
 * The AI Art Generator (docs/web.md, "Home and the composer"): prompt, style and Generate.
 * Generation is only simulated: no request is sent; the button shows 'Generating...' for 2 s, then
 * the dialog closes. The form is checked as every form is (useZodForm), with a schema of its own:
 * no procedure takes it yet; the prompt follows the shared text rule (`text()`).
 */
import { text } from '@cubes/api/schemas';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, ChevronDown, Sparkles } from 'lucide-react';
import { Dialog, Select } from 'radix-ui';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { TextField } from '../../components/form/text-field';
import { useZodForm } from '../../components/form/use-zod-form';
import { Button } from '../../components/ui/button';
import { DialogCloseButton } from '../../components/ui/dialog-close-button';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';

export const GENERATION_DELAY_MS = 2000;

export const ART_STYLES = [
  { value: 'pixel-art', label: msg`Pixel Art` },
  { value: 'realistic', label: msg`Realistic` },
  { value: 'abstract', label: msg`Abstract` },
  { value: 'cartoon', label: msg`Cartoon` },
  { value: '3d-render', label: msg`3D Render` },
] as const;
export type ArtStyle = (typeof ART_STYLES)[number]['value'];

function isArtStyle(value: string): value is ArtStyle {
  return ART_STYLES.some((s) => s.value === value);
}

export const ART_PROMPT_MAX_LENGTH = 1000;

/** The form's schema, its messages in the reader's language. */
function generatorForm(i18n: I18n) {
  const empty = i18n._(msg`Prompt cannot be empty`);
  const max = ART_PROMPT_MAX_LENGTH;
  return z.object({
    // 'Prompt' names the field in the shared text rule's own (English) message.
    prompt: text('Prompt', { error: empty })
      .trim()
      .min(1, empty)
      .max(max, i18n._(msg`Prompt must be at most ${max} characters`)),
    style: z.enum(ART_STYLES.map((s) => s.value) as [ArtStyle, ...ArtStyle[]], {
      error: i18n._(msg`Choose a style`),
    }),
  });
}

interface AiArtGeneratorDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AiArtGeneratorDialog({ open, onOpenChange }: AiArtGeneratorDialogProps) {
  const { i18n, t } = useLingui();
  // Made again when the language changes (`t` changes with it).
  const schema = useMemo(() => generatorForm(i18n), [i18n, t]);
  const form = useZodForm(schema, { prompt: '', style: 'pixel-art' });
  const { prompt, style } = form.values;
  const [generating, setGenerating] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const closeRef = useRef(onOpenChange);
  closeRef.current = onOpenChange;
  const styleId = useId();

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const canGenerate = prompt.trim() !== '' && !generating;

  const generate = form.handleSubmit(() => {
    if (generating) return;
    setGenerating(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setGenerating(false);
      // The prompt starts empty next time; the style stays as chosen.
      form.reset({ prompt: '', style });
      closeRef.current(false);
    }, GENERATION_DELAY_MS);
  });

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="dialog-content fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-xl">
          <div className="grid gap-1.5 pe-8">
            <Dialog.Title className="flex items-center gap-2 text-lg font-semibold tracking-tight">
              <Sparkles aria-hidden="true" className="size-5 text-primary" />
              <Trans>AI Art Generator</Trans>
            </Dialog.Title>
            <Dialog.Description className="text-sm text-muted-foreground">
              <Trans>Create stunning AI-generated images with different styles</Trans>
            </Dialog.Description>
          </div>

          <form onSubmit={generate} noValidate className="grid gap-4">
            <TextField
              {...form.field('prompt')}
              label={t`Prompt`}
              placeholder={t`Describe what you want to create...`}
              autoComplete="off"
            />
            <div className="grid gap-2">
              <Label htmlFor={styleId}>
                <Trans>Style</Trans>
              </Label>
              <Select.Root
                value={style}
                onValueChange={(value) => {
                  if (isArtStyle(value)) form.setValue('style', value);
                }}
              >
                <Select.Trigger
                  id={styleId}
                  className={cn(
                    'flex h-10 w-full items-center justify-between gap-2 rounded-md border border-input bg-background px-3 text-sm shadow-xs',
                    'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/40',
                  )}
                >
                  <Select.Value />
                  <Select.Icon>
                    <ChevronDown aria-hidden="true" className="size-4 opacity-60" />
                  </Select.Icon>
                </Select.Trigger>
                <Select.Portal>
                  <Select.Content
                    position="popper"
                    sideOffset={4}
                    className="menu-content z-[60] max-h-[var(--radix-select-content-available-height)] w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border bg-popover text-popover-foreground shadow-lg"
                  >
                    <Select.Viewport className="p-1">
                      {ART_STYLES.map((option) => (
                        <Select.Item
                          key={option.value}
                          value={option.value}
                          className="relative flex cursor-pointer items-center rounded-sm py-2 pe-8 ps-2 text-sm outline-none select-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground"
                        >
                          <Select.ItemText>{i18n._(option.label)}</Select.ItemText>
                          <Select.ItemIndicator className="absolute end-2 inline-flex items-center">
                            <Check aria-hidden="true" className="size-4" />
                          </Select.ItemIndicator>
                        </Select.Item>
                      ))}
                    </Select.Viewport>
                  </Select.Content>
                </Select.Portal>
              </Select.Root>
            </div>
            <p className="text-xs text-muted-foreground">
              <Trans>
                A preview of the generator: image generation is not connected yet, so no image is created.
              </Trans>
            </p>
            <Button type="submit" disabled={!canGenerate} className="w-full">
              {generating ? (
                <>
                  <Spinner />
                  <Trans>Generating...</Trans>
                </>
              ) : (
                <>
                  <Sparkles aria-hidden="true" />
                  <Trans>Generate</Trans>
                </>
              )}
            </Button>
          </form>

          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
