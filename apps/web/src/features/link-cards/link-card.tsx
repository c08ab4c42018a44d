/**
 * A post's link card: the page's image (our own copy under /objects/, never the page's URL), its
 * site and title, and its description, as one link that opens the page in a new tab. The author
 * gets a "Remove preview" button beside it.
 */
import { useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { useId } from 'react';
import { useAuth } from '../auth/auth-provider';
import type { Post } from '../posts/post-cache';
import { useRemoveLinkCard } from './queries';

type Card = NonNullable<Post['linkCard']>;

/** The host a card names when the page gave no site name. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** Only images we serve: a card image is always an /objects/ path. */
const ownImage = (url: string | null) => (url?.startsWith('/objects/') ? url : null);

export function LinkCard({ post }: { post: Pick<Post, 'id' | 'userId' | 'linkCard'> }) {
  const { user } = useAuth();
  const remove = useRemoveLinkCard();
  const { t } = useLingui();
  const id = useId();
  const card: Card | null = post.linkCard;
  if (!card) return null;
  const image = ownImage(card.imageUrl);
  const site = card.siteName ?? hostOf(card.url);
  return (
    <div className="relative min-w-0" data-testid="link-card">
      <a
        href={card.url}
        target="_blank"
        rel="noopener noreferrer nofollow ugc"
        // Its name is the title (the text it shows that is not hidden); the site and description describe it.
        aria-describedby={`${id}-site${card.description ? ` ${id}-description` : ''}`}
        className="group grid min-w-0 grid-cols-1 overflow-hidden rounded-lg border bg-background text-foreground transition-colors hover:bg-accent/40 focus-visible:outline-2 focus-visible:outline-ring sm:grid-cols-[9rem_1fr]"
      >
        {image ? (
          // Positioned inside its box, the image adds nothing to the card's width: a wide one
          // cannot push a narrow screen's layout sideways.
          <span className="relative block aspect-[1.91/1] w-full bg-muted sm:aspect-auto sm:h-full sm:min-h-24">
            <img
              src={`${image}/thumb`}
              alt=""
              loading="lazy"
              decoding="async"
              className="absolute inset-0 size-full object-cover"
            />
          </span>
        ) : null}
        <span className="grid min-w-0 content-center gap-0.5 px-3 py-2.5">
          <span id={`${id}-site`} aria-hidden="true" className="truncate text-xs text-muted-foreground">
            {site}
          </span>
          <span className="line-clamp-2 break-words font-semibold leading-snug [overflow-wrap:anywhere] group-hover:underline">
            {card.title}
          </span>
          {card.description ? (
            <span
              id={`${id}-description`}
              aria-hidden="true"
              className="line-clamp-2 break-words text-sm text-muted-foreground [overflow-wrap:anywhere]"
            >
              {card.description}
            </span>
          ) : null}
        </span>
      </a>
      {user?.id === post.userId ? (
        <button
          type="button"
          onClick={() => remove.mutate(post)}
          disabled={remove.isPending}
          aria-label={t`Remove preview`}
          title={t`Remove preview`}
          className="absolute top-1.5 end-1.5 inline-flex size-7 items-center justify-center rounded-full border bg-background/90 text-muted-foreground shadow-sm hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-4"
        >
          <X aria-hidden="true" />
        </button>
      ) : null}
    </div>
  );
}
