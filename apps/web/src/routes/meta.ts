/**
 * The <head> of each page the server renders (entry-server.tsx), from the query cache the page's
 * loader filled: title, description, canonical URL, Open Graph, Twitter's card and JSON-LD. Only
 * the server reads this module, so none of it reaches the browser's bundle.
 *
 * Tags are described, not written: pages/render.ts writes them with every value escaped. What a
 * hidden, deleted or suspended subject shows is the not-found page's head (`found: false`, and
 * `robots: noindex`): the server answers 404 and no old preview text survives.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { cutText } from '@cubes/api/rules';
import { type I18n, type MessageDescriptor, setupI18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { profileInput } from '../features/profile/queries';
import { summaryInput, tagOf } from '../features/tags/queries';
import { documentTitle, PRODUCT_NAME } from '../lib/document-title';
import { messages as englishMessages } from '../locales/en/messages.po';
import type { QueryUtils } from './loader';

export type HeadTag =
  | { tag: 'title'; text: string }
  | { tag: 'meta'; name?: string; property?: string; content: string }
  | { tag: 'link'; rel: string; href: string; type?: string; title?: string; hreflang?: string }
  | { tag: 'json-ld'; json: object };

export interface PageHead {
  /** false: the subject is unknown or hidden from this reader (a 404 with noindex). */
  found: boolean;
  tags: HeadTag[];
}

interface HeadArgs {
  utils: QueryUtils;
  pathname: string;
  search: URLSearchParams;
  /** PUBLIC_URL or the request's own origin, without a trailing slash. */
  origin: string;
  /** The page's language (lib/i18n.ts, `i18nFor`): the head is written in it. English unless given. */
  i18n?: I18n;
}

type Profile = RouterOutputs['users']['byUsername'];

let englishI18n: I18n | undefined;
/** English, the head's language when the caller names none (its own instance: no switching). */
function english(): I18n {
  englishI18n ??= setupI18n({ locale: 'en', messages: { en: englishMessages } });
  return englishI18n;
}

const DESCRIPTION_MESSAGE: MessageDescriptor = msg`Cubes AI: a community for AI creators. Post, chat with Cubey, explore AI art and more.`;
/** The site's description in English (a member's shell); `pageHead` writes it in the page's language. */
export const DESCRIPTION = english()._(DESCRIPTION_MESSAGE);
/** The card for a page without an image of its own (512 × 512, in public/icons). */
const DEFAULT_IMAGE = { path: '/icons/icon-512.png', width: 512, height: 512, alt: msg`The Cubes AI logo` };
/** Previews show about this much; a description past it only costs bytes. */
const DESCRIPTION_MAX = 200;
const TITLE_QUOTE_MAX = 70;

/** The head of the page `pathname` lands on; `found: false` for a 404. */
export function pageHead(args: HeadArgs): PageHead {
  const i18n = i18nOf(args);
  const description = i18n._(DESCRIPTION_MESSAGE);
  const parts = args.pathname.split('/').filter(Boolean).map(decodeSegment);
  if (parts.length === 0) return page(args, { title: documentTitle(), description, type: 'website' });
  const [first, second] = parts;
  if (first === 'posts' && second && parts.length === 2) return postHead(args, second);
  if (first === 'profile' && second && parts.length === 2) return profileHead(args, second);
  if (first === 'tags' && second && parts.length === 2) return tagHead(args, second);
  if (first === 'search' && parts.length === 1) {
    const q = args.search.get('q')?.trim() ?? '';
    return page(args, {
      title: documentTitle(q ? i18n._(msg`Search: ${q}`) : i18n._(msg`Search`)),
      description: q ? i18n._(msg`Posts and people on ${PRODUCT_NAME} matching “${q}”.`) : description,
      type: 'website',
      path: q ? `/search?q=${encodeURIComponent(q)}` : '/search',
    });
  }
  if (first === 'gallery' && parts.length === 1)
    return page(args, {
      title: documentTitle(i18n._(msg`Gallery`)),
      description: i18n._(msg`AI art, music and video shared by the ${PRODUCT_NAME} community.`),
      type: 'website',
    });
  return notFound(args);
}

/** The i18n the head is written with: the page's, else English. */
function i18nOf(args: HeadArgs): I18n {
  return args.i18n ?? english();
}

function postHead(args: HeadArgs, postId: string): PageHead {
  const i18n = i18nOf(args);
  const post = args.utils.posts.byId.getData({ postId })?.post;
  if (!post) return notFound(args);
  const author = {
    username: post.username,
    displayName: post.userDisplayName,
    avatarUrl: post.userAvatarUrl,
  };
  // A post behind a content warning is described by its warning alone, and a warned or sensitive
  // image is not the page's card: a link preview shows what a visitor's folded card shows.
  const warning = post.contentWarning;
  const warningText = warning ? oneLine(warning) : '';
  const text = warning ? i18n._(msg`Content warning: ${warningText}`) : oneLine(post.content);
  const first = post.images[0];
  const image = first && !warning && !first.sensitive ? first : undefined;
  const path = `/posts/${encodeURIComponent(post.id)}`;
  const name = author.displayName;
  const username = author.username;
  const quote = cutText(text, TITLE_QUOTE_MAX);
  return page(args, {
    title: `${i18n._(msg`${name} (@${username}): “${quote}”`)} · ${PRODUCT_NAME}`,
    description: cutText(text, DESCRIPTION_MAX),
    type: 'article',
    path,
    image: image
      ? {
          path: image.url,
          width: image.width,
          height: image.height,
          alt: image.alt ?? i18n._(msg`An image posted by ${name}`),
        }
      : avatarImage(author, i18n),
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'SocialMediaPosting',
      '@id': absolute(args.origin, path),
      url: absolute(args.origin, path),
      headline: cutText(text, 110),
      ...(warning ? {} : { articleBody: post.content }),
      datePublished: toIso(post.createdAt),
      ...(post.editedAt ? { dateModified: toIso(post.editedAt) } : {}),
      author: {
        '@type': 'Person',
        name: author.displayName,
        alternateName: `@${author.username}`,
        url: absolute(args.origin, `/profile/${encodeURIComponent(author.username)}`),
      },
      ...(image ? { image: absolute(args.origin, image.url) } : {}),
      interactionStatistic: [
        counter('LikeAction', post.likesCount),
        counter('CommentAction', post.commentsCount),
      ],
    },
  });
}

function profileHead(args: HeadArgs, username: string): PageHead {
  const i18n = i18nOf(args);
  const profile: Profile | undefined = args.utils.users.byUsername.getData(profileInput(username.trim()));
  if (!profile || profile.isSuspended) return notFound(args);
  const { user } = profile;
  const path = `/profile/${encodeURIComponent(user.username)}`;
  const bio = user.bio ? oneLine(user.bio) : '';
  const name = user.displayName;
  const posts = profile.stats.postsCount;
  return page(args, {
    title: documentTitle(`${user.displayName} (@${user.username})`),
    description: cutText(
      bio ||
        i18n._(msg`${name} is on ${PRODUCT_NAME}: ${plural(posts, { one: '# post', other: '# posts' })}.`),
      DESCRIPTION_MAX,
    ),
    type: 'profile',
    path,
    image: avatarImage(user, i18n),
    feed: { href: `${path}.rss`, title: i18n._(msg`Posts by ${name}`) },
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'ProfilePage',
      url: absolute(args.origin, path),
      mainEntity: {
        '@type': 'Person',
        name: user.displayName,
        alternateName: `@${user.username}`,
        identifier: user.id,
        ...(bio ? { description: bio } : {}),
        ...(user.avatarUrl ? { image: absolute(args.origin, user.avatarUrl) } : {}),
        interactionStatistic: [
          counter('FollowAction', profile.stats.followersCount),
          counter('WriteAction', profile.stats.postsCount),
        ],
      },
    },
  });
}

function tagHead(args: HeadArgs, raw: string): PageHead {
  const i18n = i18nOf(args);
  const { tag, valid } = tagOf(raw);
  const summary = valid ? args.utils.tags.summary.getData(summaryInput(tag)) : undefined;
  if (!summary) return notFound(args);
  const path = `/tags/${encodeURIComponent(tag)}`;
  const posts = summary.postsCount;
  const people = summary.peopleCount;
  return page(args, {
    title: documentTitle(`#${tag}`),
    description: i18n._(
      msg`#${tag} on ${PRODUCT_NAME}: ${plural(posts, { one: '# post', other: '# posts' })} by ${plural(people, { one: '# person', other: '# people' })}.`,
    ),
    type: 'website',
    path,
    feed: { href: `${path}.rss`, title: i18n._(msg`Posts tagged #${tag}`) },
    // A tag nobody used yet is a page (it says so), not one for search engines.
    noindex: summary.postsCount === 0,
  });
}

function notFound(args: HeadArgs): PageHead {
  const i18n = i18nOf(args);
  const { tags } = page(args, {
    title: documentTitle(i18n._(msg`Page not found`)),
    description: i18n._(msg`This page does not exist or has moved.`),
    type: 'website',
    noindex: true,
  });
  return { found: false, tags };
}

interface PageFields {
  title: string;
  description: string;
  type: 'website' | 'article' | 'profile';
  /** The canonical path; the asked path when left out. */
  path?: string;
  image?: { path: string; width: number | null; height: number | null; alt: string };
  noindex?: boolean;
  feed?: { href: string; title: string };
  jsonLd?: object;
}

function page(args: HeadArgs, fields: PageFields): PageHead {
  const url = absolute(args.origin, fields.path ?? args.pathname);
  const image = fields.image ?? { ...DEFAULT_IMAGE, alt: i18nOf(args)._(DEFAULT_IMAGE.alt) };
  const ownImage = fields.image !== undefined && image.width !== null && image.width >= 300;
  const tags: HeadTag[] = [
    { tag: 'title', text: fields.title },
    { tag: 'meta', name: 'description', content: fields.description },
    ...(fields.noindex ? [{ tag: 'meta' as const, name: 'robots', content: 'noindex' }] : []),
    ...(fields.noindex ? [] : [{ tag: 'link' as const, rel: 'canonical', href: url }]),
    { tag: 'meta', property: 'og:site_name', content: PRODUCT_NAME },
    { tag: 'meta', property: 'og:title', content: fields.title },
    { tag: 'meta', property: 'og:description', content: fields.description },
    { tag: 'meta', property: 'og:url', content: url },
    { tag: 'meta', property: 'og:type', content: fields.type },
    { tag: 'meta', property: 'og:image', content: absolute(args.origin, image.path) },
    ...(image.width
      ? [{ tag: 'meta' as const, property: 'og:image:width', content: String(image.width) }]
      : []),
    ...(image.height
      ? [{ tag: 'meta' as const, property: 'og:image:height', content: String(image.height) }]
      : []),
    { tag: 'meta', property: 'og:image:alt', content: image.alt },
    { tag: 'meta', name: 'twitter:card', content: ownImage ? 'summary_large_image' : 'summary' },
    { tag: 'meta', name: 'twitter:title', content: fields.title },
    { tag: 'meta', name: 'twitter:description', content: fields.description },
    { tag: 'meta', name: 'twitter:image', content: absolute(args.origin, image.path) },
    { tag: 'meta', name: 'twitter:image:alt', content: image.alt },
  ];
  if (fields.feed)
    tags.push({
      tag: 'link',
      rel: 'alternate',
      type: 'application/rss+xml',
      title: fields.feed.title,
      href: absolute(args.origin, fields.feed.href),
    });
  if (fields.jsonLd) tags.push({ tag: 'json-ld', json: fields.jsonLd });
  return { found: true, tags };
}

function avatarImage(
  user: { displayName: string; avatarUrl: string | null },
  i18n: I18n,
): PageFields['image'] {
  const name = user.displayName;
  return user.avatarUrl
    ? { path: user.avatarUrl, width: null, height: null, alt: i18n._(msg`${name}'s avatar`) }
    : undefined;
}

function counter(action: string, count: number) {
  return {
    '@type': 'InteractionCounter',
    interactionType: `https://schema.org/${action}`,
    userInteractionCount: count,
  };
}

/** An absolute URL on our origin (an image's `/objects/…` path); one that is already absolute stays. */
function absolute(origin: string, path: string): string {
  return /^https?:\/\//i.test(path) ? path : `${origin}${path.startsWith('/') ? path : `/${path}`}`;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The text as one line: previews show no line breaks. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function toIso(value: Date | string): string {
  return new Date(value).toISOString();
}
