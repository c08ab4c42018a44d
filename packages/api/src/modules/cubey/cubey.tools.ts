/**
 * Cubey's tools: the offline assistant's look-ups, offered to a connected model as OpenAI-style
 * functions. Each runs as the asking member through the services their own screens use (search,
 * profile, trending, gallery), so blocks, mutes, suspensions and removed posts hide exactly what
 * those screens hide; a profile behind a block either way, or a suspended member's, is "not
 * found" here (the screen shows a blank card, an answer would still name them).
 *
 * Every tool answers the model with compact JSON and the member with a look-up: what it did
 * ("Searched posts for 'pixel art'") and the posts, members and media it found, saved with the
 * answer. Adding a tool is one entry in CUBEY_TOOLS.
 */
import { z } from 'zod';
import type { AuthedContext } from '../../context.types.js';
import { text } from '../../text.js';
import { listGallery } from '../gallery/gallery.service.js';
import { search, suggestions } from '../search/search.service.js';
import { trending } from '../tags/tag.service.js';
import { getProfile, listUserPosts } from '../users/user.service.js';
import type { CubeyLookup, CubeySource } from './cubey.schema.js';
import type { ToolCall, ToolSpec } from './providers/provider.js';

/** What one call gives: the JSON the model reads, and what the member sees of it. */
export interface ToolOutcome {
  result: unknown;
  lookup: CubeyLookup;
}

interface CubeyTool<I> {
  spec: ToolSpec;
  input: z.ZodType<I>;
  run(ctx: AuthedContext, input: I): Promise<ToolOutcome>;
}

/** Longest text of a post or bio the model is given. */
const EXCERPT = 280;
/** At most this many items a call. */
const ITEMS = 8;

const excerpt = (value: string | null, max = EXCERPT): string => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a model's arguments may hold them
  const flat = (value ?? '').replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
};

/** A short quote of what the member asked for, for the look-up's label. */
const quoted = (words: string) => `'${excerpt(words, 60)}'`;

interface PostLike {
  id: string;
  username: string;
  userDisplayName: string;
  content: string;
  likesCount: number;
  commentsCount: number;
  createdAt: string;
}

const postForModel = (p: PostLike) => ({
  id: p.id,
  author: `@${p.username}`,
  authorName: p.userDisplayName,
  text: excerpt(p.content),
  likes: p.likesCount,
  comments: p.commentsCount,
  createdAt: p.createdAt,
});

const postSource = (p: PostLike): CubeySource => ({
  kind: 'post',
  id: p.id,
  username: p.username,
  label: excerpt(p.content, 80) || `Post by @${p.username}`,
});

const memberSource = (username: string, displayName: string): CubeySource => ({
  kind: 'member',
  username,
  label: displayName,
});

/** The members behind posts, each once, after the posts. */
function withAuthors(posts: PostLike[]): CubeySource[] {
  const authors = new Map<string, string>();
  for (const p of posts) if (!authors.has(p.username)) authors.set(p.username, p.userDisplayName);
  return [...posts.map(postSource), ...[...authors].map(([u, d]) => memberSource(u, d))];
}

const searchPosts: CubeyTool<{ query: string }> = {
  spec: {
    name: 'search_posts',
    description:
      "Search the community's posts by words (full-text, typos forgiven). Returns the best matching posts with their authors, likes and comments.",
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'The words to search for' } },
      required: ['query'],
    },
  },
  // As the search page's input: no control characters, at most 200.
  input: z.object({ query: text('Query').trim().min(1).max(200) }),
  async run(ctx, { query }) {
    const found = (await search(ctx, { q: query })).posts.slice(0, ITEMS);
    return {
      result: { query, posts: found.map(postForModel) },
      lookup: {
        tool: 'search_posts',
        label: `Searched posts for ${quoted(query)}`,
        sources: withAuthors(found),
      },
    };
  },
};

const memberProfile: CubeyTool<{ username: string }> = {
  spec: {
    name: 'member_profile',
    description:
      "A member's profile (name, bio, counts of posts and followers) and their most recent posts, by username.",
    parameters: {
      type: 'object',
      properties: { username: { type: 'string', description: 'The username, with or without @' } },
      required: ['username'],
    },
  },
  input: z.object({
    username: z
      .string()
      .trim()
      .transform((u) => u.replace(/^@/, ''))
      .pipe(z.string().regex(/^[A-Za-z0-9_]{1,30}$/)),
  }),
  async run(ctx, { username }) {
    const label = `Looked up @${username}`;
    const missing = {
      result: { error: `No member called @${username}` },
      lookup: { tool: 'member_profile', label, sources: [] },
    };
    let profile: Awaited<ReturnType<typeof getProfile>>;
    try {
      profile = await getProfile(ctx, username);
    } catch (error) {
      if ((error as { code?: string }).code === 'NOT_FOUND') return missing;
      throw error;
    }
    if (profile.isBlocking || profile.isBlockedBy || profile.isSuspended) return missing;
    const u = profile.user;
    const posts = (await listUserPosts(ctx, { userId: u.id, limit: 5, cursor: null })).items;
    return {
      result: {
        username: `@${u.username}`,
        displayName: u.displayName,
        bio: excerpt(u.bio),
        posts: profile.stats.postsCount,
        followers: profile.stats.followersCount,
        following: profile.stats.followingCount,
        youFollowThem: profile.isFollowing,
        recentPosts: posts.map(postForModel),
      },
      lookup: {
        tool: 'member_profile',
        label: `Looked up @${u.username}`,
        sources: [memberSource(u.username, u.displayName), ...posts.map(postSource)],
      },
    };
  },
};

const trendingPosts: CubeyTool<Record<string, never>> = {
  spec: {
    name: 'trending_posts',
    description: 'The posts trending now: the most liked and commented of the last 48 hours.',
    parameters: { type: 'object', properties: {} },
  },
  input: z.object({}).strip() as unknown as z.ZodType<Record<string, never>>,
  async run(ctx) {
    const posts = (await suggestions(ctx)).posts.slice(0, ITEMS);
    return {
      result: { posts: posts.map(postForModel) },
      lookup: { tool: 'trending_posts', label: 'Looked at trending posts', sources: withAuthors(posts) },
    };
  },
};

const trendingTags: CubeyTool<Record<string, never>> = {
  spec: {
    name: 'trending_tags',
    description:
      'The hashtags trending now: those the most distinct people used in the last 24 hours, with how many people and posts.',
    parameters: { type: 'object', properties: {} },
  },
  input: z.object({}).strip() as unknown as z.ZodType<Record<string, never>>,
  async run(ctx) {
    // The Trending tags list the asker sees: hidden content and what they block or mute left out.
    const tags = await trending(ctx);
    return {
      result: { tags: tags.map((t) => ({ tag: `#${t.tag}`, people: t.peopleCount, posts: t.postsCount })) },
      lookup: {
        tool: 'trending_tags',
        label: 'Looked at trending tags',
        sources: tags.map((t) => ({ kind: 'tag', tag: t.tag, label: `#${t.tag}` }) as CubeySource),
      },
    };
  },
};

const GALLERY_TYPES = ['all', 'art', 'music', 'fun', 'video'] as const;

const galleryItems: CubeyTool<{ query?: string | undefined; type: (typeof GALLERY_TYPES)[number] }> = {
  spec: {
    name: 'gallery_items',
    description:
      'The newest items of the AI media gallery (art, music, fun, video), optionally of one type or matching words in their titles.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words of the title (optional)' },
        type: { type: 'string', enum: [...GALLERY_TYPES], description: 'One type, or all (the default)' },
      },
    },
  },
  input: z.object({
    query: text('Query').trim().max(200).optional(),
    type: z.enum(GALLERY_TYPES).catch('all'),
  }),
  async run(ctx, { query, type }) {
    // With words, as the search page finds media; without, as the gallery lists them.
    const words = (query ?? '').trim();
    const found = words
      ? (await search(ctx, { q: words })).aiMedia.filter((m) => type === 'all' || m.type === type)
      : (await listGallery(ctx, { type, limit: ITEMS, cursor: null })).items;
    const items = found.slice(0, ITEMS);
    return {
      result: {
        items: items.map((m) => ({
          id: m.id,
          title: excerpt(m.title, 120),
          type: m.type,
          creator: `@${m.creator.username}`,
          favorites: m.favoritesCount,
        })),
      },
      lookup: {
        tool: 'gallery_items',
        label: words ? `Searched the gallery for ${quoted(words)}` : 'Browsed the gallery',
        sources: items.map((m) => ({ kind: 'media', id: m.id, label: excerpt(m.title, 80) }) as CubeySource),
      },
    };
  },
};

/** The tools a model is offered, by name; a new tool is one more entry here. */
export const CUBEY_TOOLS: Record<string, CubeyTool<never>> = Object.fromEntries(
  [searchPosts, memberProfile, trendingPosts, trendingTags, galleryItems].map((t) => [
    t.spec.name,
    t as CubeyTool<never>,
  ]),
);

export const CUBEY_TOOL_SPECS: ToolSpec[] = Object.values(CUBEY_TOOLS).map((t) => t.spec);

/** The JSON a model reads for a call; at most this many characters. */
export const TOOL_RESULT_MAX = 8_000;

/**
 * Runs one call the model asked for, as the member in `ctx`: its result as the JSON text the
 * model reads, and the look-up to show (none for a call that names no tool or is malformed).
 */
export async function runToolCall(
  ctx: AuthedContext,
  call: ToolCall,
): Promise<{ content: string; lookup: CubeyLookup | null }> {
  const tool = CUBEY_TOOLS[call.name];
  if (!tool)
    return {
      content: JSON.stringify({ error: `There is no tool called ${call.name.slice(0, 60)}` }),
      lookup: null,
    };
  let args: unknown;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    return { content: JSON.stringify({ error: 'The arguments are not valid JSON' }), lookup: null };
  }
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    return {
      content: JSON.stringify({
        error: `Invalid arguments: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      }),
      lookup: null,
    };
  }
  const outcome = await tool.run(ctx, parsed.data as never);
  const content = JSON.stringify(outcome.result);
  return {
    content: content.length > TOOL_RESULT_MAX ? `${content.slice(0, TOOL_RESULT_MAX)}…(cut)` : content,
    lookup: outcome.lookup,
  };
}
