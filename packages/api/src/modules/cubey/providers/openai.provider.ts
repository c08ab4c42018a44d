/**
 * The OpenAI-compatible chat completions client (OpenAI, Ollama, vLLM, llama.cpp's server):
 * POST {baseUrl}/chat/completions with `stream: true`, read as server-sent events (`data:` lines
 * of JSON chunks, ending with `data: [DONE]`). Every failure becomes a ProviderError whose message
 * a user can read: unreachable, an error status, a timeout, a broken stream; what the provider
 * wrote in it never shows any part of a key (`redactSecrets`: providers echo keys).
 */
import {
  type ChatTurn,
  type CubeyProvider,
  type GenerateRequest,
  ProviderError,
  redactSecrets,
  SYSTEM_PROMPT,
  titleFromWords,
  trimHistory,
} from './provider.js';

export interface OpenAiProviderOptions {
  /** e.g. http://127.0.0.1:11434/v1 (the path that ends before /chat/completions) */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  /** Longest wait for the answer to start, and between two pieces of it. */
  timeoutMs?: number;
  /** Tokens of system prompt and history sent with each request. */
  contextTokens?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_CONTEXT_TOKENS = 4_000;

const TITLE_PROMPT =
  'Write a title of at most six words for a chat that starts with the message below. Answer with the title only, no quotes.';

export function createOpenAiProvider(options: OpenAiProviderOptions): CubeyProvider {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const budget = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  /** The provider's words, shown to users, without the key or anything shaped like one. */
  const shown = (error: ProviderError) => new ProviderError(redactSecrets(error.message, [options.apiKey]));

  /** One request, with an idle timer that `touch` re-arms; Stop aborts it too. */
  async function request(body: unknown, signal: AbortSignal) {
    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
    };
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const failure = (error: unknown): Error => {
      if (timedOut)
        return new ProviderError(`The AI provider did not answer within ${Math.round(timeoutMs / 1000)} s`);
      if (signal.aborted) return error instanceof Error ? error : new Error('aborted');
      if (error instanceof ProviderError) return shown(error);
      return new ProviderError('The AI provider could not be reached');
    };
    touch();
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (error) {
      done();
      throw failure(error);
    }
    if (!response.ok) {
      const detail = await readErrorDetail(response).catch(() => '');
      done();
      throw shown(
        new ProviderError(`The AI provider answered ${response.status}${detail ? `: ${detail}` : ''}`),
      );
    }
    return { response, touch, done, failure };
  }

  return {
    kind: 'openai',
    async *stream({ messages, signal }: GenerateRequest) {
      const turns = trimHistory({ role: 'system', content: SYSTEM_PROMPT }, messages, budget);
      const { response, touch, done, failure } = await request(
        { model: options.model, stream: true, messages: turns },
        signal,
      );
      try {
        if (!response.body) throw new ProviderError('The AI provider sent an empty answer');
        for await (const data of sseData(response.body, touch)) {
          if (data === '[DONE]') return;
          const piece = parseChunk(data);
          if (piece) yield piece;
        }
        throw new ProviderError('The AI provider ended the answer early');
      } catch (error) {
        throw failure(error);
      } finally {
        done();
      }
    },
    async title(firstMessage, signal) {
      const turns: ChatTurn[] = [
        { role: 'system', content: TITLE_PROMPT },
        { role: 'user', content: firstMessage.slice(0, 2000) },
      ];
      const { response, done, failure } = await request(
        { model: options.model, stream: false, messages: turns, max_tokens: 24 },
        signal,
      );
      try {
        const json = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
        const content = json.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw new ProviderError('The AI provider sent no title');
        return titleFromWords(content.replace(/^["'\s]+|["'\s.]+$/g, ''));
      } catch (error) {
        throw failure(error);
      } finally {
        done();
      }
    },
  };
}

/** The `message` of an OpenAI-style error body, or a short piece of the text, for the user. */
async function readErrorDetail(response: Response): Promise<string> {
  const body = (await response.text()).slice(0, 2000);
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message ?? undefined);
    if (typeof message === 'string') return clean(message);
  } catch {
    // not JSON: the text itself
  }
  return clean(body);
}

function clean(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a provider's text may hold them
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, 200)
  );
}

/** The text a chunk adds, or throws the error a chunk reports. */
function parseChunk(data: string): string {
  let json: { choices?: { delta?: { content?: unknown } }[]; error?: { message?: unknown } };
  try {
    json = JSON.parse(data);
  } catch {
    throw new ProviderError('The AI provider sent a malformed stream');
  }
  if (json.error) {
    const message = typeof json.error.message === 'string' ? clean(json.error.message) : 'unknown error';
    throw new ProviderError(`The AI provider failed: ${message}`);
  }
  const content = json.choices?.[0]?.delta?.content;
  return typeof content === 'string' ? content : '';
}

/** The `data:` payloads of a server-sent event stream; `onBytes` on every read (the idle timer). */
async function* sseData(body: ReadableStream<Uint8Array>, onBytes: () => void): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    onBytes();
    buffer += decoder.decode(bytes, { stream: true });
    let newline = buffer.search(/\r?\n/);
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
      newline = buffer.search(/\r?\n/);
    }
  }
  if (data.length > 0) yield data.join('\n');
}
