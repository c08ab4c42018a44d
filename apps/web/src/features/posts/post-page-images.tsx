/**
 * A post's images on its own page: each at the column's full width, in its own shape (the stored
 * size reserves its box before it loads, so nothing moves), one under the other, the full image
 * rather than the card's thumbnail. A described image shows its description under it, where the
 * card has its ALT button (whose popover's code a later chunk cannot share with the first page's:
 * rolldown/rolldown#10731); a click opens the lightbox, as on the card.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useRef, useState } from 'react';
import { useAuth } from '../auth/auth-provider';
import { fallbackAlt } from './image-alt';
import type { Post } from './post-cache';

const PostLightbox = lazy(() => import('./post-lightbox'));

/** Width over height from the stored size; 16:10 when it is unknown. */
function ratio({ width, height }: Post['images'][number]): number {
  return width && height ? width / height : 16 / 10;
}

export function PostPageImages({ post }: { post: Post }) {
  const images = post.images;
  const count = images.length;
  const [open, setOpen] = useState<number | null>(null);
  const triggers = useRef<(HTMLButtonElement | null)[]>([]);
  const returnTo = useRef(0);
  const { i18n, t } = useLingui();
  const fallback = fallbackAlt(post, i18n);
  // Sensitive images blur until pressed, all at once, as on the card (post-images.tsx).
  const [pressed, setPressed] = useState(false);
  const revealed = pressed || !!useAuth().preferences?.alwaysShowSensitiveMedia;

  return (
    <>
      <ul
        aria-label={t`${plural(count, { one: 'Image', other: '# images' })}`}
        data-testid="post-images"
        className="grid gap-2"
      >
        {images.map((image, index) => {
          const number = index + 1;
          return (
            <li key={image.url} className="grid gap-1.5">
              {image.sensitive && !revealed ? (
                <button
                  type="button"
                  onClick={() => setPressed(true)}
                  className="relative block w-full overflow-hidden rounded-lg border bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                >
                  <img
                    src={image.thumbUrl}
                    alt=""
                    width={image.width ?? undefined}
                    height={image.height ?? undefined}
                    style={{ aspectRatio: ratio(image) }}
                    className="block h-auto max-h-[85vh] w-full scale-125 object-cover blur-2xl"
                  />
                  <span className="absolute inset-0 grid place-items-center">
                    <span className="rounded-md bg-black/75 px-3 py-1.5 font-semibold text-sm text-white">
                      <Trans>
                        Sensitive content<span className="sr-only">, show image {number}</span>
                      </Trans>
                    </span>
                  </span>
                </button>
              ) : (
                <button
                  type="button"
                  ref={(node) => {
                    triggers.current[index] = node;
                  }}
                  aria-label={count > 1 ? t`View image ${number} of ${count}` : t`View full image`}
                  onClick={() => {
                    returnTo.current = index;
                    setOpen(index);
                  }}
                  className="block w-full overflow-hidden rounded-lg border bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                >
                  {/* A very tall image keeps the screen's height, drawn whole inside its box. */}
                  <img
                    src={image.url}
                    alt={image.alt ?? fallback}
                    width={image.width ?? undefined}
                    height={image.height ?? undefined}
                    style={{ aspectRatio: ratio(image) }}
                    // The first is what the page is for: asked for at once, the rest when near.
                    loading={index === 0 ? 'eager' : 'lazy'}
                    fetchPriority={index === 0 ? 'high' : undefined}
                    decoding="async"
                    className="block h-auto max-h-[85vh] w-full object-contain"
                  />
                </button>
              )}
              {/* Said once: a screen reader has read it as the image's text alternative. */}
              {image.alt && (revealed || !image.sensitive) ? (
                <p aria-hidden="true" className="user-text whitespace-pre-wrap text-sm text-muted-foreground">
                  {image.alt}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {open !== null ? (
        <Suspense fallback={null}>
          <PostLightbox
            post={post}
            open={open}
            setOpen={setOpen}
            returnFocus={() => triggers.current[returnTo.current]}
            fallback={fallback}
          />
        </Suspense>
      ) : null}
    </>
  );
}
