/**
 * Link cards: the first http(s) link of a post gets a card (the page's title, description, site
 * name and image). Never on the request path: creating the post only records its link and, when
 * the page was fetched in the last day, shows that card at once; otherwise a job
 * (jobs/link-card.jobs.ts, or this process when there is no job runner) fetches the page through
 * the SSRF guard, reads its tags, re-encodes its image as an upload of our own, keeps the preview
 * for the URL a day and tells open feeds (`postChanges`, kind `linkCard`), which load the post
 * again. The author removes the card before posting (`linkCard: false`) or after
 * (`linkCards.remove`).
 */
import type { StorageDriver } from '@cubes/storage';
import { MAX_OBJECT_BYTES, sniffImageType } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, publishEvent } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { notFound, requireUuid } from '../../errors.js';
import type { EventBus } from '../../events/event-bus.js';
import { JOBS, type LinkCardJob } from '../../jobs/jobs.names.js';
import { RefusedEndpointError } from '../../net/ssrf.guard.js';
import { createPublicImage } from '../objects/objects.service.js';
import { LinkFetchError, PAGE_MAX_BYTES, safeFetch } from './link-card.fetch.js';
import { decodePage, parsePreview } from './link-card.parse.js';
import {
  deleteOwnPostLink,
  deletePostLink,
  findFreshPreview,
  findPostLink,
  insertPostLink,
  lockLinkUrl,
  type PreviewRow,
  savePreview,
} from './link-card.repository.js';
import type { LinkCard } from './link-card.schema.js';
import { DEFAULT_LINK_PREVIEW_SETTINGS, type LinkPreviewSettings } from './link-card.settings.js';
import { firstLink } from './link-card.url.js';

/** A preview is kept this long per URL; a post of the same link meanwhile fetches nothing. */
export const LINK_PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

export const POST_NOT_FOUND = ERROR_REASONS.POST_NOT_FOUND;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** What the card's job needs: the host's pieces, not a request's context. */
export interface LinkCardDeps {
  fork: () => EntityManager;
  storage: StorageDriver;
  bus: EventBus;
  /** The host's cache scope: this process's caches hear the change at once. */
  cacheScope: object;
  settings: LinkPreviewSettings;
  now?: () => Date;
  logError?: (message: string, error: unknown) => void;
  /** Tests: the resolver the guard asks. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

/**
 * Records the link of a new post (its first http(s) URL) unless the author asked for no card;
 * the card when the page was fetched in the last day, else null and a job is queued (or run in
 * this process, not awaited, when there is no job runner).
 */
export async function attachLinkCard(
  ctx: AuthedContext,
  post: { id: string; content: string },
  wanted: boolean,
): Promise<LinkCard | null> {
  if (!wanted) return null;
  const { card, due } = await recordLink(ctx.em, ctx.now(), post);
  if (due) await queueLinkCard(ctx, post.id);
  return card;
}

/**
 * An edit's text: when its first link is another than before, the old link's card goes and the
 * new link's card follows as on a new post (at once when fetched today, else by the job that
 * `queueLinkCard` sends once `em`'s transaction has committed: `due`). The same first link keeps
 * the card as it is, or its absence when the author removed it.
 */
export async function relinkEditedPost(
  em: EntityManager,
  now: Date,
  post: { id: string; content: string },
  previousContent: string,
): Promise<{ due: boolean }> {
  if (firstLink(post.content) === firstLink(previousContent)) return { due: false };
  await deletePostLink(em, post.id);
  return { due: (await recordLink(em, now, post)).due };
}

/** Gives the post its first link's row; `due` when no preview of it is fresh and a job must fetch one. */
async function recordLink(
  em: EntityManager,
  now: Date,
  post: { id: string; content: string },
): Promise<{ card: LinkCard | null; due: boolean }> {
  const url = firstLink(post.content);
  if (!url) return { card: null, due: false };
  const { fresh, card } = await insertPostLink(
    em,
    post.id,
    url,
    new Date(now.getTime() - LINK_PREVIEW_TTL_MS),
  );
  return { card, due: !fresh };
}

/** Sends the card's job for `postId` (or runs it in this process, not awaited, without a runner). */
export async function queueLinkCard(ctx: AuthedContext, postId: string): Promise<void> {
  const job: LinkCardJob = { postId };
  if (ctx.jobs) {
    // The post is written: a queue that cannot take the job costs it its card, not the answer.
    await ctx.jobs
      .send(JOBS.linkCard, job)
      .catch((error: unknown) => ctx.logError?.('link card not queued', error));
  } else {
    void buildLinkCard(depsOf(ctx), job).catch((error: unknown) =>
      ctx.logError?.('link card not built', error),
    );
  }
}

function depsOf(ctx: Context): LinkCardDeps {
  return {
    fork: ctx.fork,
    storage: ctx.storage,
    bus: ctx.bus,
    cacheScope: ctx.cacheScope,
    settings: ctx.linkPreviews ?? DEFAULT_LINK_PREVIEW_SETTINGS,
    now: ctx.now,
    ...(ctx.logError ? { logError: ctx.logError } : {}),
  };
}

export type LinkCardOutcome = 'fetched' | 'cached' | 'none';

/**
 * The job: the card of post `postId`, from the preview kept for its link, or fetched when none is
 * fresh. `none`: the post or its link is gone (deleted, card removed). Open feeds hear of a card
 * that shows something; a post out of sight is heard of by caches only.
 */
export async function buildLinkCard(deps: LinkCardDeps, { postId }: LinkCardJob): Promise<LinkCardOutcome> {
  const now = (deps.now ?? (() => new Date()))();
  const em = deps.fork();
  const post = await findPostLink(em, postId);
  if (!post) return 'none';
  const freshSince = new Date(now.getTime() - LINK_PREVIEW_TTL_MS);
  let preview = await findFreshPreview(em, post.url, freshSince);
  let outcome: LinkCardOutcome = 'cached';
  if (!preview) {
    // One fetch per URL, on every instance: the jobs of other posts of the same new link wait on
    // the URL's lock while this one fetches, then find its preview (a connection is held for the
    // fetch, at most the guard's 5 s).
    ({ preview, outcome } = await em.transactional(async (tx) => {
      await lockLinkUrl(tx, post.url);
      const kept = await findFreshPreview(tx, post.url, freshSince);
      if (kept) return { preview: kept, outcome: 'cached' as const };
      const fetched = await fetchPreview(deps, tx, post.url, post.author_id, now);
      await savePreview(tx, fetched);
      return { preview: fetched, outcome: 'fetched' as const };
    }));
  }
  if (preview.title !== null) {
    publishEvent(
      { bus: deps.bus, cacheScope: deps.cacheScope, ...(deps.logError ? { logError: deps.logError } : {}) },
      'postChanges',
      { postId, kind: 'linkCard', authorId: post.author_id, hidden: post.hidden },
    );
  }
  return outcome;
}

/**
 * The preview of `url`: the page fetched and read, its image fetched, checked by its bytes and
 * re-encoded as a public upload of `ownerId`. A page that cannot be had, is not HTML or says
 * nothing is a preview without a title (kept too: it is not fetched again for a day); an image
 * that cannot be had or decoded leaves the card without one.
 */
async function fetchPreview(
  deps: LinkCardDeps,
  em: EntityManager,
  url: string,
  ownerId: string,
  now: Date,
): Promise<PreviewRow> {
  const empty: PreviewRow = {
    url,
    fetched_at: now,
    title: null,
    description: null,
    site_name: null,
    image_key: null,
  };
  const guard = {
    allowPrivate: deps.settings.allowPrivate,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  };
  let page: Awaited<ReturnType<typeof safeFetch>>;
  try {
    page = await safeFetch(url, {
      ...guard,
      accept: (type) => type === 'text/html' || type === 'application/xhtml+xml',
      acceptHeader: 'text/html,application/xhtml+xml;q=0.9',
      maxBytes: PAGE_MAX_BYTES,
      overLimit: 'cut',
    });
  } catch (error) {
    if (error instanceof LinkFetchError || error instanceof RefusedEndpointError) return empty;
    throw error;
  }
  const parsed = parsePreview(decodePage(page.body, page.charset), page.url);
  if (parsed.title === null) return empty;
  let imageKey: string | null = null;
  if (parsed.imageUrl) {
    try {
      const image = await safeFetch(parsed.imageUrl, {
        ...guard,
        accept: (type) => IMAGE_TYPES.has(type),
        acceptHeader: 'image/png,image/jpeg,image/gif,image/webp',
        maxBytes: MAX_OBJECT_BYTES,
        overLimit: 'refuse',
      });
      // The type is the bytes', never the header's.
      const type = sniffImageType(image.body);
      if (type) {
        const path = await createPublicImage(em, deps.storage, ownerId, image.body, now, type);
        imageKey = path.replace(/^\/objects\//, '');
      }
    } catch (error) {
      if (!(error instanceof LinkFetchError || error instanceof RefusedEndpointError)) {
        // sharp could not decode it: a card without an image.
        deps.logError?.('link card image not kept', error);
      }
    }
  }
  return {
    url,
    fetched_at: now,
    title: parsed.title,
    description: parsed.description,
    site_name: parsed.siteName,
    image_key: imageKey,
  };
}

/** Takes the card off one's own post; another member's post, or an unknown one, is 404. */
export async function removeLinkCard(ctx: AuthedContext, rawPostId: string): Promise<{ ok: true }> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const authorId = ctx.session.user.id;
  const result = await deleteOwnPostLink(ctx.em, postId, authorId);
  if (!result) throw notFound(POST_NOT_FOUND);
  if (result.removed) {
    publishEvent(ctx, 'postChanges', { postId, kind: 'linkCard', authorId, hidden: false });
  }
  return { ok: true };
}
