/**
 * A post's images full size (post-images.tsx opens it): arrow keys and Previous/Next step through
 * them, each with its description; closing gives focus back to the image that opened it without
 * scrolling the page. Loaded lazily, when an image is first opened.
 */
import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { KeyboardEvent } from 'react';
import { focusBackWithoutScroll } from '../../lib/focus-back';
import type { Post } from './post-cache';

export default function PostLightbox({
  post,
  open,
  setOpen,
  step,
  onKeyDown,
  returnFocus,
  fallback,
}: {
  post: Post;
  /** The index of the image shown. */
  open: number;
  setOpen: (index: number | null) => void;
  step: (by: number) => void;
  onKeyDown: (event: KeyboardEvent) => void;
  returnFocus: () => HTMLElement | null | undefined;
  fallback: string;
}) {
  const images = post.images;
  const count = images.length;
  const current = images[open];
  return (
    <Dialog.Root open onOpenChange={(next) => (next ? null : setOpen(null))}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-black/85" />
        <Dialog.Content
          onKeyDown={onKeyDown}
          // The content covers the screen: a click beside the image closes, as on the overlay.
          onClick={(event) => {
            if (event.target === event.currentTarget) setOpen(null);
          }}
          // Back to the image that opened it, without scrolling the page.
          onCloseAutoFocus={focusBackWithoutScroll(returnFocus)}
          className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 p-4 outline-none"
        >
          <Dialog.Title className="sr-only">
            {count > 1
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
                  {count > 1 ? (
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
  );
}
