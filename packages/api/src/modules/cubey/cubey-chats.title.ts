/**
 * A chat's title, proposed after its first answer from the exchange: the model's (a request of
 * its own) when one is connected, a local summary of the question's key words otherwise or when
 * the model fails. It replaces the first words only while the owner has not renamed the chat, and
 * every tab hears of it (cubey.onSessions).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../../events/event-bus.js';
import { touchSession } from './cubey.runtime.js';
import { CHAT_TITLE_MAX_LENGTH } from './cubey.schema.js';
import { proposeSessionTitle } from './cubey-chats.repository.js';
import type { CubeyProvider } from './providers/provider.js';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our please should so tell than that the their them then there these they this to ' +
    'us was we were what when where which who whom why will with would you your about any some show give ' +
    'find list get let make want need know more most much many'
  ).split(' '),
);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const MAX_WORDS = 5;
// biome-ignore lint/suspicious/noControlCharactersInRegex: a model's control characters are dropped
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** The key words of `text` (no small words, none twice), at most MAX_WORDS. */
function keyWords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of text.replace(/`{3}[\s\S]*?(`{3}|$)/g, ' ').match(WORD) ?? []) {
    const lower = word.toLowerCase();
    if (STOP_WORDS.has(lower) || seen.has(lower) || /^\d+$/.test(word)) continue;
    seen.add(lower);
    out.push(word);
    if (out.length === MAX_WORDS) break;
  }
  return out;
}

/**
 * A title summarising an exchange without a model: the question's key words (the answer's first
 * line's when the question has none), the first one capitalised.
 */
export function summaryTitle(question: string, answer: string): string {
  let words = keyWords(question);
  if (words.length === 0) {
    const firstLine = answer.split('\n').find((line) => keyWords(line).length > 0) ?? '';
    words = keyWords(firstLine.replace(/@\S+/g, ' '));
  }
  if (words.length === 0) return 'New chat';
  const title = words.join(' ');
  return (title.charAt(0).toLocaleUpperCase() + title.slice(1)).slice(0, 60);
}

/** The text a model is asked to title: the question and the start of the answer. */
function exchangeText(question: string, answer: string): string {
  return answer ? `${question.slice(0, 1500)}\n\nCubey answered:\n${answer.slice(0, 1500)}` : question;
}

export async function proposeTitle(
  deps: {
    fork: () => EntityManager;
    bus: EventBus;
    logError?: ((message: string, error: unknown) => void) | undefined;
  },
  provider: CubeyProvider,
  job: {
    userId: string;
    sessionId: string;
    initialTitle: string;
    question: string;
    answer: string;
    timeoutMs: number;
  },
): Promise<void> {
  let title = '';
  if (provider.title) {
    try {
      title = await provider.title(
        exchangeText(job.question, job.answer),
        AbortSignal.timeout(job.timeoutMs),
      );
    } catch (error) {
      deps.logError?.('cubey title failed; a local summary instead', error);
    }
  }
  title = title.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim().slice(0, CHAT_TITLE_MAX_LENGTH);
  title ||= summaryTitle(job.question, job.answer);
  if (title === job.initialTitle) return;
  const em = deps.fork();
  if (await proposeSessionTitle(em, job.sessionId, job.initialTitle, title)) {
    await touchSession(em, deps.bus, job.userId, job.sessionId);
  }
}
