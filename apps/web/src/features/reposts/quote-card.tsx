/**
 * The post a post quotes, embedded in its card: author, time, text (cut at 300 characters by the
 * server) and its first image's thumbnail, the whole card a link to the quoted post's page. When
 * the quoted post is deleted or hidden from the viewer, it says so instead. A quoted post with a
 * content warning shows only its warning (unless the viewer always shows such content); a
 * sensitive image shows blurred (unless they always show sensitive media).
 */
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import { Handle } from '../../components/handle';
import { RelativeTime } from '../../components/relative-time';
import { UserAvatar } from '../../components/user-avatar';
import { cn } from '../../lib/cn';
import { useAuth } from '../auth/auth-provider';
import type { Post } from '../posts/post-cache';
import { postPath } from '../posts/post-path';

type Quote = NonNullable<Post['quote']>;

export function QuoteCard({ quote }: { quote: Quote | null }) {
  const { preferences } = useAuth();
  if (!quote) {
    return (
      <p className="rounded-lg border border-dashed px-4 py-3 text-sm text-muted-foreground">
        <Trans>This post is unavailable</Trans>
      </p>
    );
  }
  const hideImage = quote.imageSensitive && !preferences?.alwaysShowSensitiveMedia;
  const folded = !!quote.contentWarning && !preferences?.alwaysShowContentWarnings;
  return (
    <Link
      to={postPath(quote.id)}
      className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2 rounded-lg border px-4 py-3 transition-colors hover:bg-accent/50 focus-visible:outline-2 focus-visible:outline-ring"
    >
      {/* Spaces between the parts: an accessible name joins their texts as they are. */}
      <span className="sr-only">
        <Trans>Quoted post by</Trans>
      </span>{' '}
      <span className="flex min-w-0 items-center gap-2 text-sm">
        <UserAvatar
          user={{
            username: quote.username,
            displayName: quote.userDisplayName,
            avatarUrl: quote.userAvatarUrl,
          }}
          size={20}
          decorative
        />
        <span className="min-w-0 truncate font-semibold">{quote.userDisplayName}</span>{' '}
        <Handle
          username={quote.username}
          className="hidden min-w-0 truncate text-muted-foreground sm:inline"
        />{' '}
        <span aria-hidden="true" className="text-muted-foreground">
          ·
        </span>
        <RelativeTime date={quote.createdAt} className="shrink-0 text-muted-foreground" />
      </span>{' '}
      {/* A warning stands for the quoted text and image: the quote is a link, so they show on
          the quoted post's own page, behind its warning there too. */}
      {quote.contentWarning ? (
        <span className="user-text text-sm font-medium">
          <span className="sr-only">
            <Trans>Content warning:</Trans>{' '}
          </span>
          {quote.contentWarning}
        </span>
      ) : null}
      {folded ? null : (
        <>
          <span dir="auto" className="user-text text-sm leading-relaxed">
            {quote.content}
          </span>
          {quote.imageUrl ? (
            <span className="relative block overflow-hidden rounded-md border">
              <img
                src={quote.imageUrl}
                alt=""
                loading="lazy"
                className={cn('max-h-48 w-full object-cover', hideImage && 'scale-125 blur-2xl')}
              />
              {hideImage ? (
                <span className="absolute inset-0 grid place-items-center">
                  <span className="rounded-md bg-black/75 px-3 py-1.5 font-semibold text-sm text-white">
                    <Trans>Sensitive content</Trans>
                  </span>
                </span>
              ) : null}
            </span>
          ) : null}
        </>
      )}
    </Link>
  );
}
