/**
 * A post's images on its card: one to four in a grid whose boxes take their shape from the
 * stored sizes (so nothing moves while they load), an "ALT" button on each described image that
 * shows its description, and a lightbox that steps through them with the arrow keys and shows
 * each one's description.
 */
import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { Dialog, Popover } from 'radix-ui';
import { type KeyboardEvent, useRef, useState } from 'react';
import { cn } from '../../lib/cn';
import { focusBackWithoutScroll } from '../../lib/focus-back';
import type { Post } from './post-cache';

type PostImage = Post['images'][number];

/** Width over height, kept between a tall 3:4 and a wide 2:1; 16:10 when the size is unknown. */
export function clampedRatio(image: Pick<PostImage, 'width' | 'height'>): number {
  if (!image.width || !image.height) return 16 / 10;
  return Math.min(2, Math.max(3 / 4, image.width / image.height));
}

/**
 * The grid's own width over height: one image its clamped shape; two side by side as wide as
 * their shapes together (between 1:1 and 2:1); three or four in a 16:10 box.
 */
export function gridRatio(images: Pick<PostImage, 'width' | 'height'>[]): number {
  if (images.length === 1) return clampedRatio(images[0]!);
  if (images.length === 2) {
    const sum = images.reduce((total, image) => total + Math.min(1.2, clampedRatio(image)), 0);
    return Math.min(2, Math.max(1, sum));
  }
  return 16 / 10;
}

/** What a screen reader says for an image: its description, else the post's words, else who posted it. */
function fallbackAlt(post: Post): string {
  const text = post.content.replace(/\s+/g, ' ').trim();
  if (!text) return `Image attached by ${post.userDisplayName}`;
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

/** Cell placement: three images put the first one down the whole left column. */
function cellClass(count: number, index: number): string {
  if (count === 3 && index === 0) return 'row-span-2';
  return '';
}

function AltBadge({ alt, index }: { alt: string; index: number }) {
  return (
    <Popover.Root>
      <Popover.Trigger
        aria-label={`ALT, description of image ${index + 1}`}
        className="absolute bottom-2 left-2 z-10 rounded bg-black/75 px-1.5 py-0.5 font-bold text-[11px] text-white tracking-wide hover:bg-black/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white data-[state=open]:bg-black"
      >
        ALT
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side="top"
          align="start"
          sideOffset={6}
          collisionPadding={12}
          aria-label={`Description of image ${index + 1}`}
          className="menu-content z-50 max-h-[min(20rem,calc(100dvh-6rem))] w-[20rem] max-w-[calc(100vw-1.5rem)] overflow-y-auto whitespace-pre-wrap break-words rounded-lg border bg-popover p-3 text-popover-foreground text-sm shadow-xl"
        >
          {alt}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

export function PostImages({ post }: { post: Post }) {
  const images = post.images;
  const [open, setOpen] = useState<number | null>(null);
  const triggers = useRef<(HTMLButtonElement | null)[]>([]);
  const returnTo = useRef<number>(0);
  const count = images.length;
  const fallback = fallbackAlt(post);

  const show = (index: number) => {
    returnTo.current = index;
    setOpen(index);
  };
  const step = (by: number) => setOpen((index) => (index === null ? index : (index + by + count) % count));
  const onKeyDown = (event: KeyboardEvent) => {
    if (count < 2) return;
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      step(1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      step(-1);
    }
  };
  const current = open === null ? null : images[open];

  return (
    <>
      <ul
        aria-label={count > 1 ? `${count} images` : 'Image'}
        data-testid="post-images"
        style={{ aspectRatio: gridRatio(images) }}
        className={cn(
          'grid w-full gap-1 overflow-hidden rounded-lg border bg-muted',
          count > 1 && 'grid-cols-2',
          count > 2 && 'grid-rows-2',
        )}
      >
        {images.map((image, index) => (
          <li key={image.url} className={cn('relative min-h-0 min-w-0', cellClass(count, index))}>
            <button
              type="button"
              ref={(node) => {
                triggers.current[index] = node;
              }}
              aria-label={count > 1 ? `View image ${index + 1} of ${count}` : 'View full image'}
              onClick={() => show(index)}
              className="block size-full overflow-hidden focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring"
            >
              <img
                src={image.thumbUrl}
                alt={image.alt ?? fallback}
                width={image.width ?? undefined}
                height={image.height ?? undefined}
                loading="lazy"
                decoding="async"
                className="size-full object-cover transition-transform duration-300 hover:scale-[1.02]"
              />
            </button>
            {image.alt ? <AltBadge alt={image.alt} index={index} /> : null}
          </li>
        ))}
      </ul>
      <Dialog.Root open={open !== null} onOpenChange={(next) => (next ? null : setOpen(null))}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/85" />
          <Dialog.Content
            onKeyDown={onKeyDown}
            // The content covers the screen: a click beside the image closes, as on the overlay.
            onClick={(event) => {
              if (event.target === event.currentTarget) setOpen(null);
            }}
            // Back to the image that opened it, without scrolling the page.
            onCloseAutoFocus={focusBackWithoutScroll(() => triggers.current[returnTo.current])}
            className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 p-4 outline-none"
          >
            <Dialog.Title className="sr-only">
              {count > 1 && open !== null
                ? `Image ${open + 1} of ${count} by ${post.userDisplayName}`
                : `Image by ${post.userDisplayName}`}
            </Dialog.Title>
            {current ? (
              <>
                <img
                  key={current.url}
                  src={current.url}
                  alt={current.alt ?? fallback}
                  decoding="async"
                  className="max-h-[calc(100dvh-9rem)] max-w-[calc(100vw-2rem)] rounded-lg object-contain shadow-2xl"
                />
                <Dialog.Description asChild>
                  <div className="grid max-w-2xl justify-items-center gap-1 text-center text-sm text-white">
                    {count > 1 && open !== null ? (
                      <p className="font-medium tabular-nums text-white/80" aria-live="polite">
                        {open + 1} / {count}
                      </p>
                    ) : null}
                    {current.alt ? (
                      <p
                        data-testid="lightbox-alt"
                        className="max-h-24 overflow-y-auto whitespace-pre-wrap break-words"
                      >
                        {current.alt}
                      </p>
                    ) : (
                      <p className="text-white/70">No description</p>
                    )}
                  </div>
                </Dialog.Description>
              </>
            ) : null}
            {count > 1 ? (
              <>
                <button
                  type="button"
                  aria-label="Previous image"
                  onClick={() => step(-1)}
                  className="absolute top-1/2 left-2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-white"
                >
                  <ChevronLeft aria-hidden="true" className="size-6" />
                </button>
                <button
                  type="button"
                  aria-label="Next image"
                  onClick={() => step(1)}
                  className="absolute top-1/2 right-2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-white"
                >
                  <ChevronRight aria-hidden="true" className="size-6" />
                </button>
              </>
            ) : null}
            <Dialog.Close
              aria-label="Close"
              className="absolute top-3 right-3 inline-flex size-10 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-white"
            >
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
