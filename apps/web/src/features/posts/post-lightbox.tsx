/**
 * A post's images full size (post-images.tsx opens it): arrow keys and Previous/Next step through
 * them, each with its description (the frame: components/lightbox.tsx). Loaded lazily, when an
 * image is first opened.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from 'radix-ui';
import { Lightbox, LightboxStep, stepIndex } from '../../components/lightbox';
import type { Post } from './post-cache';

export default function PostLightbox({
  post,
  open,
  setOpen,
  returnFocus,
  fallback,
}: {
  post: Post;
  /** The index of the image shown. */
  open: number;
  setOpen: (index: number | null) => void;
  returnFocus: () => HTMLElement | null | undefined;
  fallback: string;
}) {
  const images = post.images;
  const count = images.length;
  const current = images[open];
  const step = (by: -1 | 1) => setOpen(stepIndex(open, by, count));
  const { i18n, t } = useLingui();
  const number = open + 1;
  const name = post.userDisplayName;
  return (
    <Lightbox count={count} onStep={step} onClose={() => setOpen(null)} returnFocus={returnFocus}>
      <Dialog.Title className="sr-only">
        {count > 1 ? (
          <Trans>
            Image {number} of {count} by {name}
          </Trans>
        ) : (
          <Trans>Image by {name}</Trans>
        )}
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
                  {i18n.number(number)} / {i18n.number(count)}
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
                <p className="text-white/70">
                  <Trans>No description</Trans>
                </p>
              )}
            </div>
          </Dialog.Description>
        </>
      ) : null}
      {count > 1 ? (
        <>
          <LightboxStep by={-1} label={t`Previous image`} onStep={step} place="side" />
          <LightboxStep by={1} label={t`Next image`} onStep={step} place="side" />
        </>
      ) : null}
    </Lightbox>
  );
}
