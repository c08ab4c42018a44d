/**
 * The composer's image strip: the images attached so far (up to four, each added through the
 * upload dialog opened again), each with its thumbnail, a description field (alt text, at most
 * 1,500 characters), a Remove button and Move earlier; a reminder, which does not block posting,
 * while an image has no description.
 */
import { IMAGE_ALT_MAX_LENGTH, POST_IMAGES_MAX } from '@cubes/api/rules';
import { ArrowLeft, X } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { thumbnailUrl } from '../uploads/image-paths';

export interface DraftImage {
  objectPath: string;
  alt: string;
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
  const baseId = useId();
  if (images.length === 0) return null;
  const undescribed = images.flatMap((image, index) => (image.alt.trim() ? [] : [index + 1]));
  const setAlt = (index: number, alt: string) =>
    onChange(images.map((image, i) => (i === index ? { ...image, alt } : image)));
  const remove = (index: number) => onChange(images.filter((_, i) => i !== index));
  const moveEarlier = (index: number) => {
    const next = [...images];
    [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
    onChange(next);
  };

  return (
    <div className="grid gap-2 sm:ml-[54px]">
      <ul aria-label="Attached images" className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2">
        {images.map((image, index) => {
          const fieldId = `${baseId}-alt-${index}`;
          const length = image.alt.length;
          return (
            <li
              key={image.objectPath}
              className="grid grid-cols-[5.5rem_1fr] gap-2 rounded-lg border bg-muted/40 p-2"
            >
              <div className="relative">
                <img
                  src={thumbnailUrl(image.objectPath)}
                  alt={image.alt.trim() || `Attachment ${index + 1}`}
                  className="aspect-square w-full rounded-md border bg-muted object-cover"
                />
                <span
                  aria-hidden="true"
                  className="absolute top-1 left-1 rounded bg-black/70 px-1 text-[11px] font-semibold text-white"
                >
                  {index + 1}
                </span>
              </div>
              <div className="grid min-w-0 content-start gap-1">
                <label htmlFor={fieldId} className="text-xs font-medium">
                  Description of image {index + 1}
                </label>
                <textarea
                  id={fieldId}
                  value={image.alt}
                  onChange={(event) => setAlt(index, event.target.value)}
                  maxLength={IMAGE_ALT_MAX_LENGTH}
                  rows={2}
                  readOnly={disabled}
                  placeholder="What is in the image?"
                  className="min-h-14 w-full resize-y rounded-md border border-input bg-background px-2 py-1 text-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
                />
                <div className="flex flex-wrap items-center gap-1">
                  {length >= ALT_COUNTER_FROM ? (
                    <span className="text-xs tabular-nums text-muted-foreground">
                      {length}/{IMAGE_ALT_MAX_LENGTH}
                    </span>
                  ) : null}
                  {index > 0 ? (
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      className="h-7 px-2 text-xs"
                      aria-label={`Move image ${index + 1} earlier`}
                      onClick={() => moveEarlier(index)}
                      disabled={disabled}
                    >
                      <ArrowLeft aria-hidden="true" />
                      Earlier
                    </Button>
                  ) : null}
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    className="ml-auto h-7 px-2 text-xs"
                    aria-label={`Remove image ${index + 1}`}
                    onClick={() => remove(index)}
                    disabled={disabled}
                  >
                    <X aria-hidden="true" />
                    Remove
                  </Button>
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <p
        aria-live="polite"
        data-testid="alt-reminder"
        className={cn('text-xs text-amber-700 dark:text-amber-400', undescribed.length === 0 && 'sr-only')}
      >
        {undescribed.length === 0
          ? 'Every image has a description.'
          : `${undescribed.length === 1 ? `Image ${undescribed[0]} has` : `Images ${undescribed.join(', ')} have`} no description. ` +
            'A description lets people who cannot see the image know what it shows; you can still post without one.'}
      </p>
    </div>
  );
}
