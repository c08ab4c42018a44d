/**
 * A profile's Favorites tab (the media the member favourited, most recent first) and Media tab
 * (their posts with images, newest first), each paged on its cursor. `empty` is what the tab
 * shows when there is nothing. Their queries are the profile's (profile/queries.ts), loaded with
 * the profile page.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ListFailed, ListLoading } from '../../components/list-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useAuth } from '../auth/auth-provider';
import type { Post } from '../posts/post-cache';
import { postPath } from '../posts/post-path';
import { useFavoritesOfQuery, useMediaOfQuery } from '../profile/queries';
import { thumbnailUrl } from '../uploads/image-paths';
import { TYPE_BADGES } from './gallery-card';

function More({ show, busy, onClick }: { show: boolean; busy: boolean; onClick: () => void }) {
  if (!show) return null;
  return (
    <div className="mt-3 flex justify-center">
      <Button variant="outline" onClick={onClick} disabled={busy}>
        {busy ? <Spinner /> : null}
        <Trans>Load more</Trans>
      </Button>
    </div>
  );
}

export function ProfileFavorites({ userId, empty }: { userId: string; empty: ReactNode }) {
  const { i18n, t } = useLingui();
  const query = useFavoritesOfQuery(userId);
  if (query.isPending)
    return (
      <ListLoading>
        <Trans>Loading...</Trans>
      </ListLoading>
    );
  if (query.isError)
    return (
      <ListFailed onRetry={() => void query.refetch()}>
        <Trans>Could not load this tab.</Trans>
      </ListFailed>
    );
  const items = query.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <>{empty}</>;
  return (
    <div>
      <ul aria-label={t`Favorites`} className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {items.map((item) => (
          <li key={item.id}>
            <Card className="overflow-hidden">
              <img
                src={thumbnailUrl(item.imageUrl)}
                alt={item.title}
                width={item.width}
                height={item.height}
                loading="lazy"
                style={{ aspectRatio: `${item.width} / ${item.height}` }}
                className="block h-auto w-full bg-muted object-cover"
              />
              <div className="p-3">
                <p className="user-text text-sm font-medium">{item.title}</p>
                <p className="text-xs text-muted-foreground">
                  {i18n._(TYPE_BADGES[item.type].label)} · {item.creator.displayName}
                </p>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      <More
        show={!!query.hasNextPage}
        busy={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      />
    </div>
  );
}

export function ProfileMedia({ userId, empty }: { userId: string; empty: ReactNode }) {
  const { t } = useLingui();
  const imageBy = (name: string) => t`Image by ${name}`;
  const query = useMediaOfQuery(userId);
  const { preferences } = useAuth();
  const hidden = (post: Post, image: Post['images'][number]) =>
    (!!post.contentWarning && !preferences?.alwaysShowContentWarnings) ||
    (image.sensitive && !preferences?.alwaysShowSensitiveMedia);
  if (query.isPending)
    return (
      <ListLoading>
        <Trans>Loading...</Trans>
      </ListLoading>
    );
  if (query.isError)
    return (
      <ListFailed onRetry={() => void query.refetch()}>
        <Trans>Could not load this tab.</Trans>
      </ListFailed>
    );
  // Every image of every post, in the post's order.
  const tiles = query.data.pages
    .flatMap((p) => p.items)
    .flatMap((post) =>
      (post.images ?? []).map((image, index) => ({ post, image, key: `${post.id}-${index}`, index })),
    );
  if (tiles.length === 0) return <>{empty}</>;
  return (
    <div>
      <ul aria-label={t`Media`} className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {tiles.map(({ post, image, key }) => (
          <li key={key}>
            <Link
              to={postPath(post.id)}
              className="block aspect-square overflow-hidden rounded-lg border bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              {hidden(post, image) ? (
                // Behind a warning or marked sensitive: blurred here, shown on the post's page.
                <span className="relative block size-full">
                  <img
                    src={image.thumbUrl}
                    alt=""
                    loading="lazy"
                    className="size-full scale-125 object-cover blur-2xl"
                  />
                  <span className="absolute inset-0 grid place-items-center p-2 text-center">
                    <span className="rounded-md bg-black/75 px-2 py-1 font-semibold text-white text-xs">
                      {post.contentWarning ? (
                        <Trans>Content warning</Trans>
                      ) : (
                        <Trans>Sensitive content</Trans>
                      )}
                    </span>
                  </span>
                </span>
              ) : (
                <img
                  src={image.thumbUrl}
                  alt={image.alt ?? (post.content.slice(0, 140) || imageBy(post.userDisplayName))}
                  loading="lazy"
                  className="size-full object-cover transition-transform duration-300 hover:scale-[1.03]"
                />
              )}
            </Link>
          </li>
        ))}
      </ul>
      <More
        show={!!query.hasNextPage}
        busy={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      />
    </div>
  );
}
