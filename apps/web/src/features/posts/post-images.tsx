/**
 * A post's images on its card: one to four in a grid whose boxes take their shape from the
 * stored sizes (so nothing moves while they load), an "ALT" button on each described image that
 * shows its description, and a lightbox that steps through them with the arrow keys and shows
 * each one's description.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useRef, useState } from 'react';
import { LazyMenu } from '../../components/ui/lazy-menu';
import { cn } from '../../lib/cn';
import { useAuth } from '../auth/auth-provider';
import { fallbackAlt } from './image-alt';
import type { Post } from './post-cache';

// The lightbox is loaded when an image is first opened (post-lightbox.tsx), not with the feed.
const PostLightbox = lazy(() => import('./post-lightbox'));

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

/** Cell placement: three images put the first one down the whole left column. */
function cellClass(count: number, index: number): string {
  if (count === 3 && index === 0) return 'row-span-2';
  return '';
}

/** The ALT button: at least 24 px each way, the smallest target WCAG 2.2 allows. */
function AltBadge({ alt, index }: { alt: string; index: number }) {
  const { t } = useLingui();
  const number = index + 1;
  return (
    <LazyMenu
      kind="popover"
      trigger={
        <button
          type="button"
          aria-label={t`ALT, description of image ${number}`}
          className="absolute bottom-2 start-2 z-10 inline-flex min-h-6 min-w-9 items-center justify-center rounded bg-black/75 px-1.5 font-bold text-[11px] text-white tracking-wide hover:bg-black/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white data-[state=open]:bg-black"
        >
          <Trans>ALT</Trans>
        </button>
      }
    >
      {({ Popover }) => (
        <Popover.Content
          side="top"
          align="start"
          sideOffset={6}
          collisionPadding={12}
          aria-label={t`Description of image ${number}`}
          className="menu-content z-50 max-h-[min(20rem,calc(100dvh-6rem))] w-[20rem] max-w-[calc(100vw-1.5rem)] overflow-y-auto whitespace-pre-wrap break-words rounded-lg border bg-popover p-3 text-popover-foreground text-sm shadow-xl"
        >
          {alt}
        </Popover.Content>
      )}
    </LazyMenu>
  );
}

export function PostImages({ post, leading = false }: { post: Post; leading?: boolean }) {
  const images = post.images;
  const [open, setOpen] = useState<number | null>(null);
  const triggers = useRef<(HTMLButtonElement | null)[]>([]);
  const returnTo = useRef<number>(0);
  const count = images.length;
  const { i18n, t } = useLingui();
  const fallback = fallbackAlt(post, i18n);
  // Images marked sensitive show blurred, labelled "Sensitive content", until one is pressed (all
  // of the post's then, so the lightbox never steps onto a hidden one), unless the member always
  // shows sensitive media. Hidden, an image has no text alternative and no ALT button either.
  const [pressed, reveal] = useState(false);
  const always = useAuth().preferences?.alwaysShowSensitiveMedia;
  const revealed = pressed || always;

  const show = (index: number) => {
    returnTo.current = index;
    setOpen(index);
  };

  return (
    <>
      <ul
        aria-label={t`${plural(count, { one: 'Image', other: '# images' })}`}
        data-testid="post-images"
        style={{ aspectRatio: gridRatio(images) }}
        className={cn(
          'grid w-full gap-1 overflow-hidden rounded-lg border bg-muted',
          count > 1 && 'grid-cols-2',
          count > 2 && 'grid-rows-2',
        )}
      >
        {images.map((image, index) => {
          const hidden = image.sensitive && !revealed;
          const number = index + 1;
          return (
            <li key={image.url} className={cn('relative min-h-0 min-w-0', cellClass(count, index))}>
              <button
                type="button"
                ref={(node) => {
                  triggers.current[index] = node;
                }}
                aria-label={
                  hidden
                    ? t`Sensitive content, show image ${number}`
                    : count > 1
                      ? t`View image ${number} of ${count}`
                      : t`View full image`
                }
                onClick={() => (hidden ? reveal(true) : show(index))}
                className="block size-full overflow-hidden focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring"
              >
                <img
                  src={image.thumbUrl}
                  alt={hidden ? '' : (image.alt ?? fallback)}
                  width={image.width ?? undefined}
                  height={image.height ?? undefined}
                  loading={leading && index === 0 ? 'eager' : 'lazy'}
                  fetchPriority={leading && index === 0 ? 'high' : 'auto'}
                  decoding="async"
                  className={cn(
                    'size-full object-cover',
                    hidden ? 'scale-125 blur-2xl' : 'transition-transform duration-300 hover:scale-[1.02]',
                  )}
                />
                {hidden ? (
                  <span className="absolute inset-0 grid place-items-center">
                    <span className="rounded-md bg-black/75 px-3 py-1.5 font-semibold text-sm text-white">
                      <Trans>Sensitive content</Trans>
                    </span>
                  </span>
                ) : null}
              </button>
              {image.alt && !hidden ? <AltBadge alt={image.alt} index={index} /> : null}
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
