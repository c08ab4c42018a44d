/**
 * The composer's image strip: the images attached so far (up to four, each added through the
 * upload dialog opened again), each with its thumbnail, a description field (alt text, at most
 * 1,500 characters), a "Mark as sensitive" box (the image then shows blurred until the viewer
 * asks), a Remove button and Move earlier; a reminder, which does not block posting,
 * while an image has no description. The Edit dialog shows the same image and field
 * (`DescribedImage`) and the same reminder.
 */
import { IMAGE_ALT_MAX_LENGTH, POST_IMAGES_MAX } from '@cubes/api/rules';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, X } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { thumbnailUrl } from '../uploads/image-paths';

export interface DraftImage {
  objectPath: string;
  alt: string;
  /** shown blurred until the viewer asks ("Mark as sensitive") */
  sensitive?: boolean;
}

export { POST_IMAGES_MAX };

/** The counter shows once a description is this close to its limit. */
const ALT_COUNTER_FROM = IMAGE_ALT_MAX_LENGTH - 100;

interface ComposerImagesProps {
  images: DraftImage[];
  onChange: (images: DraftImage[]) => void;
  disabled?: boolean;
}

export function ComposerImages({ images, onChange, disabled }: ComposerImagesProps) {
  const { t } = useLingui();
  if (images.length === 0) return null;
  const setAlt = (index: number, alt: string) =>
    onChange(images.map((image, i) => (i === index ? { ...image, alt } : image)));
  const setSensitive = (index: number, sensitive: boolean) =>
    onChange(images.map((image, i) => (i === index ? { ...image, sensitive } : image)));
  const remove = (index: number) => onChange(images.filter((_, i) => i !== index));
  const moveEarlier = (index: number) => {
    const next = [...images];
    [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
    onChange(next);
  };

  return (
    <div className="grid gap-2 sm:ms-[54px]">
      <ul aria-label={t`Attached images`} className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2">
        {images.map((image, index) => {
          const number = index + 1;
          return (
            <DescribedImage
              key={image.objectPath}
              src={thumbnailUrl(image.objectPath)}
              index={index}
              alt={image.alt}
              onAltChange={(alt) => setAlt(index, alt)}
              sensitive={image.sensitive === true}
              onSensitiveChange={(on) => setSensitive(index, on)}
              disabled={disabled}
            >
              {index > 0 ? (
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  className="h-7 px-2 text-xs"
                  aria-label={t`Move image ${number} earlier`}
                  onClick={() => moveEarlier(index)}
                  disabled={disabled}
                >
                  <ArrowLeft aria-hidden="true" className="rtl:-scale-x-100" />
                  <Trans>Earlier</Trans>
                </Button>
              ) : null}
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="ms-auto h-7 px-2 text-xs"
                aria-label={t`Remove image ${number}`}
                onClick={() => remove(index)}
                disabled={disabled}
              >
                <X aria-hidden="true" />
                <Trans>Remove</Trans>
              </Button>
            </DescribedImage>
          );
        })}
      </ul>
      <AltReminder alts={images.map((image) => image.alt)} />
    </div>
  );
}

/**
 * The reminder, which never blocks, while an image has no description (`alts` in order); read
 * out politely as it changes.
 */
export function AltReminder({ alts }: { alts: string[] }) {
  const { i18n, t } = useLingui();
  const undescribed = alts.flatMap((alt, index) => (alt.trim() ? [] : [index + 1]));
  const count = undescribed.length;
  // "1, 3" in English: the numbers of the images, listed as the language lists them.
  const images = new Intl.ListFormat(i18n.locale, { type: 'unit', style: 'short' }).format(
    undescribed.map((number) => i18n.number(number)),
  );
  const missing = t`${plural(count, {
    one: `Image ${images} has no description.`,
    other: `Images ${images} have no description.`,
  })}`;
  const why = t`A description lets people who cannot see the image know what it shows; you can still post without one.`;
  return (
    <p
      aria-live="polite"
      data-testid="alt-reminder"
      className={cn('text-xs text-amber-700 dark:text-amber-400', undescribed.length === 0 && 'sr-only')}
    >
      {count === 0 ? t`Every image has a description.` : `${missing} ${why}`}
    </p>
  );
}

interface DescribedImageProps {
  /** the thumbnail's URL */
  src: string;
  index: number;
  alt: string;
  onAltChange: (alt: string) => void;
  /** the "Mark as sensitive" box, when given */
  sensitive?: boolean;
  onSensitiveChange?: (sensitive: boolean) => void;
  disabled?: boolean;
  /** buttons under the field (the composer's Earlier and Remove) */
  children?: ReactNode;
}

/** One image of a post being written or edited: its numbered thumbnail and its description field. */
export function DescribedImage({
  src,
  index,
  alt,
  onAltChange,
  sensitive,
  onSensitiveChange,
  disabled,
  children,
}: DescribedImageProps) {
  const fieldId = useId();
  const { i18n, t } = useLingui();
  const number = index + 1;
  return (
    <li className="grid grid-cols-[5.5rem_1fr] gap-2 rounded-lg border bg-muted/40 p-2">
      <div className="relative">
        <img
          src={src}
          alt={alt.trim() || t`Attachment ${number}`}
          className="aspect-square w-full rounded-md border bg-muted object-cover"
        />
        <span
          aria-hidden="true"
          className="absolute top-1 start-1 rounded bg-black/70 px-1 text-[11px] font-semibold text-white"
        >
          {i18n.number(number)}
        </span>
      </div>
      <div className="grid min-w-0 content-start gap-1">
        <label htmlFor={fieldId} className="text-xs font-medium">
          <Trans>Description of image {number}</Trans>
        </label>
        <textarea
          id={fieldId}
          value={alt}
          onChange={(event) => onAltChange(event.target.value)}
          maxLength={IMAGE_ALT_MAX_LENGTH}
          rows={2}
          readOnly={disabled}
          placeholder={t`What is in the image?`}
          className="min-h-14 w-full resize-y rounded-md border border-input bg-background px-2 py-1 text-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
        />
        {onSensitiveChange ? (
          <label className="flex min-h-6 items-center gap-2 text-xs font-medium">
            <input
              type="checkbox"
              checked={sensitive === true}
              onChange={(event) => onSensitiveChange(event.target.checked)}
              disabled={disabled}
              className="size-4 accent-primary"
            />
            <Trans>
              Mark as sensitive<span className="sr-only"> (image {number})</span>
            </Trans>
          </label>
        ) : null}
        <div className="flex flex-wrap items-center gap-1">
          {alt.length >= ALT_COUNTER_FROM ? (
            <span className="text-xs tabular-nums text-muted-foreground">
              {alt.length}/{IMAGE_ALT_MAX_LENGTH}
            </span>
          ) : null}
          {children}
        </div>
      </div>
    </li>
  );
}
