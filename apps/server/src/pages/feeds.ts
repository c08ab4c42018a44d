/**
 * RSS 2.0 feeds of a profile (`/profile/{username}.rss`) and of a tag (`/tags/{tag}.rss`): the
 * newest FEED_ITEMS shown posts, as the reader sees them (users.posts, tags.posts: a feed reader
 * is a visitor; a member's browser gets their view, blocks and mutes applied), each with its
 * permalink and its first image as an enclosure (its stored type and size). Built with the
 * `feed` library, which writes the XML and its escaping. An item's title and description go in
 * HTML-escaped (as RSS readers expect: they decode entities in both), for two reasons: a reader
 * that renders them as HTML shows `<script>` as text, and `feed` wraps both in CDATA through
 * xml-js, which splits only the FIRST `]]>` of a text (js2xml.js, `replace(']]>', …)`): a
 * second `]]>` would end the section and put the rest into the XML as markup. Escaped, no `>`
 * reaches a CDATA section. A member who
 * is unknown, suspended, deleted or in a block with the reader, and a tag that is not one, are
 * 404 in the API's error shape.
 */
import { type PostDto, storedImages } from '@cubes/api';
import { ERROR_REASONS } from '@cubes/api/error-reasons';
import { TRPCError } from '@trpc/server';
import escapeHtml from 'escape-html';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Feed, type Item } from 'feed';
import type { ContextDeps } from '../context.js';
import { sendError } from '../errors.js';
import { type PageCaller, pageCacheControl, pageCaller } from './page-caller.js';
import { publicOrigin } from './public-origin.js';

export const FEED_ITEMS = 20;
/** How long a shared cache (or a reader) may keep a feed. */
export const FEED_CACHE_CONTROL = 'public, max-age=300';
const DEFAULT_BIO = 'Member of Cubes AI';
const TITLE_MAX = 80;

interface Channel {
  title: string;
  description: string;
  /** the page the feed is of, under the origin */
  page: string;
  /** the feed's own path, as canonical (not as the request spelled it) */
  self: string;
  image: string | null;
}

export function registerFeeds(app: FastifyInstance, deps: ContextDeps, publicUrl: string | null): void {
  const serve = async (
    req: FastifyRequest,
    reply: FastifyReply,
    read: (caller: PageCaller) => Promise<{ channel: Channel; posts: PostDto[] }>,
  ) => {
    const origin = publicOrigin(publicUrl, req);
    if (!origin) return sendError(reply, 400, { message: ERROR_REASONS.INVALID_HOST, code: 'BAD_REQUEST' });
    try {
      const { channel, posts } = await read(pageCaller(deps, req));
      const images = await storedImages(
        { em: req.em },
        posts.flatMap((p) => (p.images[0] ? [p.images[0].url] : [])),
      );
      const xml = rss(origin, channel, posts, images);
      return reply
        .header('cache-control', pageCacheControl(req, FEED_CACHE_CONTROL))
        .type('application/rss+xml; charset=utf-8')
        .send(xml);
    } catch (error) {
      if (error instanceof TRPCError && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) {
        return sendError(reply.header('cache-control', 'no-store'), 404, {
          message: ERROR_REASONS.FEED_NOT_FOUND,
          code: 'NOT_FOUND',
        });
      }
      throw error;
    }
  };

  app.get('/profile/:username.rss', (req, reply) =>
    serve(req, reply, async (caller) => {
      const { username } = req.params as { username: string };
      const profile = await caller.users.byUsername({ username });
      if (profile.isSuspended || profile.isBlocking || profile.isBlockedBy)
        throw new TRPCError({ code: 'NOT_FOUND' });
      const { user } = profile;
      const page = await caller.users.posts({ userId: user.id, limit: FEED_ITEMS });
      return {
        channel: {
          title: `${user.displayName} (@${user.username}) on Cubes`,
          description: user.bio || DEFAULT_BIO,
          page: `/profile/${user.username}`,
          self: `/profile/${user.username}.rss`,
          image: user.avatarUrl,
        },
        posts: page.items,
      };
    }),
  );

  app.get('/tags/:tag.rss', (req, reply) =>
    serve(req, reply, async (caller) => {
      const { tag: asked } = req.params as { tag: string };
      const summary = await caller.tags.summary({ tag: asked });
      const page = await caller.tags.posts({ tag: summary.tag, limit: FEED_ITEMS });
      return {
        channel: {
          title: `#${summary.tag} on Cubes`,
          description: `${summary.postsCount} ${summary.postsCount === 1 ? 'post' : 'posts'} by ${summary.peopleCount} ${summary.peopleCount === 1 ? 'person' : 'people'} tagged #${summary.tag}`,
          page: `/tags/${encodeURIComponent(summary.tag)}`,
          self: `/tags/${encodeURIComponent(summary.tag)}.rss`,
          image: null,
        },
        posts: page.items,
      };
    }),
  );
}

function rss(
  origin: string,
  channel: Channel,
  posts: PostDto[],
  images: Map<string, { contentType: string | null; size: number | null }>,
): string {
  const feed = new Feed({
    title: channel.title,
    description: channel.description,
    id: `${origin}${channel.page}`,
    link: `${origin}${channel.page}`,
    language: 'en',
    image: `${origin}${channel.image ?? '/icons/icon-512.png'}`,
    favicon: `${origin}/favicon.ico`,
    copyright: `The authors of ${channel.title}`,
    generator: 'Cubes',
    feedLinks: { rss: `${origin}${channel.self}` },
    ...(posts[0] ? { updated: new Date(posts[0].createdAt) } : {}),
  });
  for (const post of posts) feed.addItem(item(origin, post, images));
  return feed.rss2();
}

function item(
  origin: string,
  post: PostDto,
  images: Map<string, { contentType: string | null; size: number | null }>,
): Item {
  const permalink = `${origin}/posts/${post.id}`;
  // Behind a content warning, the item says the warning alone; a warned or sensitive image is no
  // enclosure (the feed shows what a visitor's folded card shows).
  const first = post.contentWarning || post.images[0]?.sensitive ? undefined : post.images[0];
  const stored = first ? images.get(first.url) : undefined;
  return {
    title: escapeHtml(titleOf(post)),
    id: permalink,
    link: permalink,
    date: new Date(post.createdAt),
    description: post.contentWarning
      ? `<p>${htmlOf(`Content warning: ${post.contentWarning}`)}</p>`
      : htmlOf(post.content),
    author: [
      { name: `${post.userDisplayName} (@${post.username})`, link: `${origin}/profile/${post.username}` },
    ],
    category: post.tags.map((tag) => ({ name: tag, domain: `${origin}/tags/${encodeURIComponent(tag)}` })),
    ...(first && stored?.contentType
      ? { enclosure: { url: `${origin}${first.url}`, type: stored.contentType, length: stored.size ?? 0 } }
      : {}),
  };
}

/** The post's first line, cut at a word near TITLE_MAX characters (whole code points). */
function titleOf(post: PostDto): string {
  if (post.contentWarning) return `Content warning: ${post.contentWarning}`;
  const line = post.content.trim().split('\n', 1)[0]!.trim();
  if (!line) return `A post by @${post.username}`;
  const chars = [...line];
  if (chars.length <= TITLE_MAX) return line;
  const cut = chars.slice(0, TITLE_MAX).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Plain text as HTML: escaped, its line breaks kept. */
function htmlOf(text: string): string {
  return escapeHtml(text).replace(/\n/g, '<br>');
}
