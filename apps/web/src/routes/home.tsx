import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link2, ShieldCheck, Zap } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { WithSideColumn } from '../components/shell/side-column';
import { Button } from '../components/ui/button';
import { type AuthStatus, useAuth } from '../features/auth/auth-provider';
import { readLastMember } from '../features/auth/last-member';
import { ComposerSlot } from '../features/posts/composer-slot';
import { rememberedScope } from '../features/posts/feed-scope';
import { FeedTabs } from '../features/posts/feed-tabs';
import type { LandedState } from '../features/posts/post-page';
import { postPath } from '../features/posts/post-path';
import { prefetchEveryoneFeed, prefetchFeed } from '../features/posts/queries';
import { cn } from '../lib/cn';
import { useDocumentTitle } from '../lib/document-title';
import { useRenderedFor } from '../lib/server-rendered';
import type { QueryUtils } from './loader';

/**
 * Home's loader. For a visitor (the session known to be none, as on the server's render): the
 * Everyone feed's first page. For a member: the feed their tabs will pick, the one chosen last on
 * this device (feed-scope.ts; `cookies`: the server's render's). For a member's shell (`member`),
 * before the session has answered: that of the member the device knows, else Everyone.
 */
export async function loader(
  utils: QueryUtils,
  member = false,
  cookies?: Readonly<Record<string, string>> | null,
): Promise<void> {
  const session = utils.auth.session.getData();
  if (session === null) await prefetchEveryoneFeed(utils);
  else if (session) await prefetchFeed(utils, rememberedScope(session.user.id, cookies));
  else if (member) {
    const known = readLastMember();
    await prefetchFeed(utils, known ? rememberedScope(known.user.id) : 'everyone');
  }
}

const BADGES = [
  { id: 'deploy', label: msg`Instant Deploy`, icon: Zap },
  { id: 'connect', label: msg`Smart Connect`, icon: Link2 },
  { id: 'blockchain', label: msg`Secure Blockchain`, icon: ShieldCheck },
] as const;

/**
 * The hero's two buttons, joining and the tools. The row is there from the first paint (held
 * unseen while the session is asked for), so the feed below never moves when the answer comes
 * (Lighthouse counted that as layout shift).
 */
function HeroActions({ status }: { status: AuthStatus }) {
  const loading = status === 'loading';
  return (
    <div
      className={cn('mt-2 flex flex-wrap gap-3', loading && 'invisible')}
      aria-hidden={loading || undefined}
    >
      <Button asChild size="lg">
        <Link to="/auth?tab=register">
          <Trans>Join the community</Trans>
        </Link>
      </Button>
      <Button asChild size="lg" variant="outline">
        <Link to="/cubes">
          <Trans>Explore the tools</Trans>
        </Link>
      </Button>
    </div>
  );
}

/** The landing hero: who we are and how to join. For visitors only: a member starts at the feed. */
function Hero({ status }: { status: AuthStatus }) {
  const { i18n, t } = useLingui();
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden rounded-2xl border bg-card px-6 py-10 shadow-sm sm:px-10 sm:py-14"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-24 -end-24 size-72 rounded-full bg-gradient-to-br from-primary/25 to-brand-2/25 blur-3xl"
      />
      <div className="relative grid max-w-2xl gap-4">
        <h1 id="hero-title" className="text-3xl font-bold tracking-tight sm:text-5xl">
          <Trans>
            Welcome to{' '}
            <span className="bg-gradient-to-r from-primary to-brand-2 bg-clip-text text-transparent">
              Cubes AI
            </span>
          </Trans>
        </h1>
        <p className="text-base text-muted-foreground sm:text-lg">
          <Trans>
            The community where AI creators build, share and connect. Post to the feed, chat with Cubey and
            explore AI-generated art, music and more.
          </Trans>
        </p>
        <ul className="flex flex-wrap gap-2" aria-label={t`Highlights`}>
          {BADGES.map(({ id, label, icon: Icon }) => (
            <li
              key={id}
              className="inline-flex items-center gap-1.5 rounded-full border bg-background/60 px-3 py-1 text-xs font-medium"
            >
              <Icon aria-hidden="true" className="size-3.5 text-primary" />
              {i18n._(label)}
            </li>
          ))}
        </ul>
        <HeroActions status={status} />
      </div>
    </section>
  );
}

export default function HomePage() {
  useDocumentTitle();
  const { user, status } = useAuth();
  const name = user?.displayName;
  // ?post={id}: an old shared link or notification, from before posts had pages of their own.
  const [params] = useSearchParams();
  const linkedPost = params.get('post');
  const location = useLocation();
  // While the session is asked for, a device that knew a member expects one: no hero that would
  // vanish (and move the feed) when the answer comes.
  // A page the server rendered knows: a member's shell expects one (a page rendered with its data
  // has the answer).
  const renderedFor = useRenderedFor();
  const [expectMember] = useState(() => (renderedFor ? renderedFor === 'shell' : readLastMember() !== null));
  const showHero = status === 'anonymous' || (status === 'loading' && !expectMember);
  const FeedHeading = showHero ? 'h2' : 'h1';
  if (linkedPost) {
    // The first entry of the history (a link from outside): Back on the post's page goes home.
    const state: LandedState | null = location.key === 'default' ? { landed: true } : null;
    return <Navigate to={postPath(linkedPost)} replace state={state} />;
  }
  return (
    <div className="grid gap-8">
      {showHero ? <Hero status={status} /> : null}

      <WithSideColumn>
        <section aria-labelledby="feed-title" className="mx-auto grid w-full max-w-2xl gap-4">
          {/* Without the hero, this is the page's main heading. */}
          <FeedHeading id="feed-title" className="user-text text-xl font-semibold tracking-tight">
            {user ? <Trans>Hi {name}, here is what's new</Trans> : <Trans>Community feed</Trans>}
          </FeedHeading>
          <ComposerSlot />
          <FeedTabs />
        </section>
      </WithSideColumn>
    </div>
  );
}
