/**
 * What Cubey needs from a language model: a stream of text pieces for a conversation (and, from a
 * model offered tools, the calls it asks for and the tokens it spent), and (optionally) a short
 * title for a new one. Two implementations: the OpenAI-compatible chat completions client
 * (openai.provider.ts) and the built-in offline assistant (offline.provider.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';

import { appFacts } from '../cubey.help.js';

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A function the model may call (OpenAI's `tools` entry): its name, what it does, its JSON schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call the model asked for; `arguments` is the JSON text it wrote. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The turns of a tool round, sent after the conversation: the model's calls, then each result. */
export type ToolTurn =
  | { role: 'assistant'; content: string; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/**
 * What a stream yields besides text: the calls the model asks for (at the end of its turn), and
 * the tokens one request spent (`estimated` when the provider sent no `usage`).
 */
export type ProviderEvent =
  | { type: 'toolCalls'; calls: ToolCall[] }
  | { type: 'usage'; tokens: number; estimated: boolean };

export interface GenerateRequest {
  /** The conversation, oldest first, ending with the user's newest message; no system prompt. */
  messages: ChatTurn[];
  /** Functions the model may call; a provider that cannot offer them answers without. */
  tools?: readonly ToolSpec[] | undefined;
  /** The tool rounds of this answer so far, sent after `messages` (never trimmed). */
  toolTurns?: readonly ToolTurn[] | undefined;
  /** Aborted on Stop: the provider ends its stream and its request. */
  signal: AbortSignal;
  /** A fork of its own, for a provider that answers from the community's data. */
  em: EntityManager;
  /** The user who asks (the offline assistant greets them by name). */
  username: string;
  /** Their id: the offline assistant leaves out what a block either way hides from them. */
  userId: string;
}

export interface CubeyProvider {
  readonly kind: 'offline' | 'openai';
  stream(request: GenerateRequest): AsyncIterable<string | ProviderEvent>;
  /**
   * A short title for a new chat from its opening (the first message, and the start of the
   * answer when there is one), in a request of its own; absent: a local summary instead.
   */
  title?(opening: string, signal: AbortSignal): Promise<string>;
}

/** A failure the user may read (the message is shown on the answer and in the 502). */
export class ProviderError extends Error {}

/** This many characters in a row of a configured key count as a piece of it. */
export const KEY_PIECE_LENGTH = 4;

const REDACTED = '[redacted]';

/** Whether `word` holds `secret`, or KEY_PIECE_LENGTH of its characters in a row. */
function holdsPieceOf(word: string, secret: string): boolean {
  if (secret.length <= KEY_PIECE_LENGTH) return word.includes(secret);
  for (let i = 0; i + KEY_PIECE_LENGTH <= secret.length; i += 1) {
    if (word.includes(secret.slice(i, i + KEY_PIECE_LENGTH))) return true;
  }
  return false;
}

/**
 * A provider's text made fit to show a user: no part of a key. Goes: each of `secrets` (the
 * configured key), every word holding a piece of one (providers echo keys masked, such as
 * `sk-…abcd`), and whatever looks like a credential whoever's it is: `Bearer`/`Basic` tokens,
 * `sk-`/`pk-`/`rk-`/`key-` style keys, `api_key=…`.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const keys = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
  let out = text;
  for (const key of keys) out = out.split(key).join(REDACTED);
  return out
    .replace(/\b(bearer)(\s+)[^\s"',;]+/gi, `$1$2${REDACTED}`)
    .replace(/\b(Basic)(\s+)[A-Za-z0-9+/=]{8,}/g, `$1$2${REDACTED}`)
    .replace(/\b(api[-_ ]?key|access[-_ ]?token|secret)(\s*[:=]\s*)[^\s"',;]+/gi, `$1$2${REDACTED}`)
    .replace(/\b(?:sk|pk|rk|key)[-_][^\s"',;]*/gi, REDACTED)
    .replace(/[^\s"'`,;()[\]{}<>]+/g, (word) =>
      word !== REDACTED && keys.some((key) => holdsPieceOf(word, key)) ? REDACTED : word,
    );
}

/** Cubey's system prompt: who it is, and the app's facts from the rules it enforces (cubey.help.ts). */
export function systemPrompt(): string {
  return [
    'You are Cubey, the friendly guide of Cubes AI, a cube-themed community where members post,',
    'like and comment, follow each other, browse a gallery of AI art, music, fun and video media, and send',
    'direct messages. Help members warmly and briefly, explain how to use the app when asked, and',
    'never invent facts about members. Answer in Markdown.',
    `How the app works: ${appFacts()}`,
  ].join(' ');
}

/** A cheap, provider-independent estimate: about four characters a token, plus framing. */
export function estimateTokens(turn: ChatTurn): number {
  return Math.ceil(turn.content.length / 4) + 4;
}

/**
 * The system prompt and as much of the conversation as fits `budget` tokens, newest first: the
 * newest message is always kept (cut from its start if it alone is too long), older ones are
 * dropped whole. The result is in conversation order.
 */
export function trimHistory(system: ChatTurn, messages: ChatTurn[], budget: number): ChatTurn[] {
  let left = budget - estimateTokens(system);
  const kept: ChatTurn[] = [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const turn = messages[i]!;
    const cost = estimateTokens(turn);
    if (cost <= left) {
      kept.unshift(turn);
      left -= cost;
      continue;
    }
    if (kept.length === 0) {
      const chars = Math.max(0, (left - 4) * 4);
      kept.unshift({ role: turn.role, content: turn.content.slice(turn.content.length - chars) });
    }
    break;
  }
  return [system, ...kept];
}

/** A title from the first message's words: at most 6 words and 60 characters. */
export function titleFromWords(message: string): string {
  const words = message
    .replace(/[#*_`>[\]()]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 6);
  let title = words.join(' ');
  if (title.length > 60) title = `${title.slice(0, 59).trimEnd()}…`;
  return title || 'New chat';
}
