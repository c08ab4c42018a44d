/**
 * The built-in offline assistant, Cubey's default when no model is configured. It answers from
 * the community's own data (who posts about a topic, what is trending, a member's profile, gallery
 * items) and explains how to use the app; it says plainly that it is the
 * offline assistant and how to connect a model. Deterministic: the same question on the same data
 * gives the same answer, streamed a word at a time like a model's.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { helpAnswers } from '../cubey.help.js';
import {
  findGalleryTitles,
  findMemberProfile,
  findPostersAbout,
  findTrendingPosts,
} from '../cubey.repository.js';
import type { CubeyProvider, GenerateRequest } from './provider.js';

export interface OfflineProviderOptions {
  /** Pause between two streamed pieces; 0 streams at once (tests). */
  tokenDelayMs?: number;
  /** Pause before the first piece, as a model takes to start (end-to-end tests see 'Thinking...'). */
  thinkMs?: number;
}

export const OFFLINE_TOKEN_DELAY_MS = 12;

export const CONNECT_MODEL_HINT =
  'To connect a model, set `CUBEY_BASE_URL` (any OpenAI-compatible endpoint: OpenAI, Ollama, vLLM or llama.cpp), `CUBEY_MODEL` and, if it needs one, `CUBEY_API_KEY`, then restart the server.';

const INTRO =
  "I'm Cubey, running as the **offline assistant**: no language model is connected, so I answer from the community's own posts, members and gallery, and I can explain how the app works.";

const CAPABILITIES = [
  'Things you can ask me:',
  '',
  '- *What is trending?*',
  '- *Who posts about cubes?*',
  '- *Who is @username?*',
  '- *Find gallery art about space*',
  '- *How do I post?* · *How do I upload images?* · *I forgot my password* · *How do messages work?*',
].join('\n');

/** Help topics; the answers about the app are built from its rules (cubey.help.ts). */
const HELP: { pattern: RegExp; answer: string | (() => string) }[] = [
  {
    pattern: /\b(forgot|forgotten|reset|password|log ?in|sign ?in)\b/,
    answer: () => helpAnswers().password,
  },
  {
    pattern: /\b(upload|uploads|image|images|photo|photos|picture|pictures|avatar|banner)\b/,
    answer: () => helpAnswers().upload,
  },
  {
    pattern: /\b(dm|dms|direct|inbox|messages?|messaging)\b/,
    answer: [
      '**Direct messages**',
      '',
      '- Open **Chat** in the navigation (you need to be logged in).',
      '- Pick a conversation on the left, or press **Message** on a member’s profile to start one.',
      '- Type and press Enter to send; Shift+Enter makes a new line.',
    ].join('\n'),
  },
  {
    pattern: /\b(post|posts|posting|write|publish|share)\b/,
    answer: () => helpAnswers().post,
  },
  {
    pattern: /\b(markdown|format|formatting|formatted|tables?)\b/,
    answer: [
      '**How my answers are formatted**',
      '',
      'I write Markdown, so tables, lists and code show as they should.',
      '',
      '| Element | You write | It shows |',
      '| :------ | :-------- | :------: |',
      '| Bold | `**cube**` | **cube** |',
      '| Strikethrough | `~~cube~~` | ~~cube~~ |',
      '| Link | `[Gallery](/gallery)` | [Gallery](/gallery) |',
      '',
      '- Lists nest:',
      '  - a step inside a step',
      '    - [x] and tasks show their boxes',
      '- Code is highlighted and has a **Copy** button:',
      '',
      '```ts',
      "const cube = { sides: 6, color: 'violet' };",
      "console.log('A cube has', cube.sides, 'sides');",
      '```',
    ].join('\n'),
  },
];

const STOP_WORDS = new Set(
  'a an and are about any anyone anything as at be by can cubey do does find for from has have how i in is it me of on or posts post posting posted talks talk talking the to what which who whom writes write writing with you your'.split(
    ' ',
  ),
);

function topicWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])]
    .filter((w) => !STOP_WORDS.has(w))
    .slice(0, 5);
}

function quote(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** Markdown that cannot break out of its list item or turn into a link. */
function plain(text: string): string {
  return text.replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`);
}

async function trending(em: EntityManager, askerId: string): Promise<string> {
  const rows = await findTrendingPosts(em, askerId);
  if (rows.length === 0)
    return 'Nothing is trending yet: there are no posts. Be the first to post on **Home**!';
  return [
    '**Trending in the community**',
    '',
    ...rows.map(
      (r, i) =>
        `${i + 1}. @${r.username}: “${plain(quote(r.content))}” (${r.likes} ${r.likes === 1 ? 'like' : 'likes'}, ${r.comments} ${r.comments === 1 ? 'comment' : 'comments'})`,
    ),
  ].join('\n');
}

async function profile(em: EntityManager, username: string, askerId: string): Promise<string | null> {
  const u = await findMemberProfile(em, username, askerId);
  if (!u) return null;
  return [
    `**${plain(u.display_name)}** (@${u.username})`,
    '',
    `> ${plain(quote(u.bio || 'Member of Cubes AI', 300))}`,
    '',
    `- ${u.posts} ${u.posts === 1 ? 'post' : 'posts'}`,
    `- ${u.followers} ${u.followers === 1 ? 'follower' : 'followers'}, following ${u.following}`,
    '',
    `Their profile: [@${u.username}](/profile/${encodeURIComponent(u.username)})`,
  ].join('\n');
}

async function postsAbout(em: EntityManager, words: string[], askerId: string): Promise<string | null> {
  if (words.length === 0) return null;
  const rows = await findPostersAbout(em, words, askerId);
  if (rows.length === 0) return null;
  return [
    `**Who posts about ${words.map(plain).join(', ')}**`,
    '',
    ...rows.map(
      (r) =>
        `- @${r.username}: ${r.count} ${r.count === 1 ? 'post' : 'posts'}, e.g. “${plain(quote(r.sample))}”`,
    ),
  ].join('\n');
}

async function galleryItems(em: EntityManager, words: string[], askerId: string): Promise<string> {
  // As the gallery: no media of a suspended creator, nor across a block either way.
  const rows = await findGalleryTitles(em, words, askerId);
  if (rows.length === 0) return 'No gallery items match that. Browse them all on **Gallery**.';
  return [
    '**From the gallery**',
    '',
    ...rows.map((r) => `- ${plain(quote(r.title, 80))} (${r.type})`),
    '',
    'See them on [Gallery](/gallery).',
  ].join('\n');
}

/** The whole answer to the newest message; exported for tests. */
export async function offlineAnswer(
  em: EntityManager,
  question: string,
  asker: { username: string; userId: string },
): Promise<string> {
  const { username, userId } = asker;
  const q = question.toLowerCase();
  if (/\b(who|what) are you\b|\boffline\b|\b(model|llm|openai|ollama|gpt|connect)\b/.test(q)) {
    return `${INTRO}\n\n${CONNECT_MODEL_HINT}\n\n${CAPABILITIES}`;
  }
  if (/\b(trending|trend|popular|hot|top)\b/.test(q)) return trending(em, userId);
  const mention =
    question.match(/@([A-Za-z0-9_]{3,30})/) ??
    question.match(/\b(?:who is|profile of)\s+([A-Za-z0-9_]{3,30})\b/i);
  if (mention) {
    const answer = await profile(em, mention[1]!, userId);
    return answer ?? `I found no member called @${plain(mention[1]!)}. Try **Search** with part of the name.`;
  }
  if (/\b(gallery|art|artwork|music|media|video)\b/.test(q)) {
    return galleryItems(
      em,
      topicWords(q.replace(/\b(gallery|art|artwork|music|media|video|items?)\b/g, ' ')),
      userId,
    );
  }
  const about = q.match(/\babout\s+(.+)/);
  if (about) {
    const answer = await postsAbout(em, topicWords(about[1]!), userId);
    if (answer) return answer;
    return `Nobody has posted about that yet. You could be the first: write a post on **Home**.`;
  }
  for (const topic of HELP) {
    if (topic.pattern.test(q)) return typeof topic.answer === 'string' ? topic.answer : topic.answer();
  }
  const words = topicWords(q);
  const found =
    words.length > 0 && !/^(hi|hello|hey|help)\b/.test(q) ? await postsAbout(em, words, userId) : null;
  if (found) return found;
  return `Hi @${username}! ${INTRO}\n\n${CAPABILITIES}\n\n${CONNECT_MODEL_HINT}`;
}

/** The answer as pieces a model would stream: each word with the spaces after it. */
export function pieces(answer: string): string[] {
  return answer.match(/\S+\s*|\s+/g) ?? [];
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export function createOfflineProvider(options: OfflineProviderOptions = {}): CubeyProvider {
  const delay = options.tokenDelayMs ?? OFFLINE_TOKEN_DELAY_MS;
  const think = options.thinkMs ?? 0;
  return {
    kind: 'offline',
    async *stream({ messages, signal, em, username, userId }: GenerateRequest) {
      const question = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const answer = await offlineAnswer(em, question, { username, userId });
      if (think > 0) await pause(think, signal);
      for (const piece of pieces(answer)) {
        if (signal.aborted) return;
        yield piece;
        if (delay > 0) await pause(delay, signal);
      }
    },
  };
}
