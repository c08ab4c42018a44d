/**
 * The OpenAI-compatible chat completions client (OpenAI, Ollama, vLLM, llama.cpp's server):
 * POST {baseUrl}/chat/completions with `stream: true`, read as server-sent events (`data:` lines
 * of JSON chunks, ending with `data: [DONE]`). Every failure becomes a ProviderError whose message
 * a user can read: unreachable, an error status, a timeout, a broken stream; what the provider
 * wrote in it never shows any part of a key (`redactSecrets`: providers echo keys).
 *
 * Tools: offered as OpenAI `tools`; the streamed `tool_calls` pieces are put together and yielded
 * as one `toolCalls` event at the end of the model's turn. A model that refuses tools (an error
 * status whose text names tools or function calling, as Ollama, vLLM and llama.cpp answer) is
 * asked again without them, and remembered (per endpoint and model, for the life of the process)
 * so later answers go without tools at once. Each request ends with a `usage` event: the
 * provider's own count (`stream_options.include_usage`), or an estimate.
 */
import {
  type ChatTurn,
  type CubeyProvider,
  estimateTokens,
  type GenerateRequest,
  ProviderError,
  type ProviderEvent,
  redactSecrets,
  systemPrompt,
  type ToolCall,
  type ToolTurn,
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

/** Endpoint-and-model pairs that refused tools: asked without them from then on. */
const refusedTools = new Set<string>();

/** Whether an error status answered to a request with tools says the model cannot take them. */
export function refusesTools(status: number, detail: string): boolean {
  return (
    status >= 400 &&
    status <= 501 &&
    status !== 401 &&
    status !== 403 &&
    status !== 429 &&
    /\btools?\b|function[ _-]?call|tool[ _-]?(choice|call)/i.test(detail)
  );
}

/** A status error that may be the model refusing tools: its status and the provider's words. */
class StatusError extends ProviderError {
  constructor(
    message: string,
    readonly status: number,
    readonly detail: string,
  ) {
    super(message);
  }
}

const TITLE_PROMPT =
  "Write a title of at most six words for a chat that starts with the exchange below (the member's first message, then the start of Cubey's answer). Answer with the title only, no quotes.";

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
      const message = redactSecrets(
        `The AI provider answered ${response.status}${detail ? `: ${detail}` : ''}`,
        [options.apiKey],
      );
      throw new StatusError(message, response.status, detail);
    }
    return { response, touch, done, failure };
  }

  return {
    kind: 'openai',
    async *stream({ messages, signal, tools, toolTurns }: GenerateRequest) {
      const turns = trimHistory({ role: 'system', content: systemPrompt() }, messages, budget);
      const wire: unknown[] = [...turns, ...(toolTurns ?? []).map(wireTurn)];
      const modelKey = `${url}|${options.model}`;
      const offered = tools && tools.length > 0 && !refusedTools.has(modelKey) ? tools : undefined;
      const body = (withTools: boolean) => ({
        model: options.model,
        stream: true,
        stream_options: { include_usage: true },
        messages: wire,
        ...(withTools && offered
          ? {
              tools: offered.map((t) => ({
                type: 'function',
                function: { name: t.name, description: t.description, parameters: t.parameters },
              })),
            }
          : {}),
      });
      let started: Awaited<ReturnType<typeof request>>;
      try {
        started = await request(body(true), signal);
      } catch (error) {
        if (!(offered && error instanceof StatusError && refusesTools(error.status, error.detail)))
          throw error;
        refusedTools.add(modelKey);
        started = await request(body(false), signal);
      }
      const { response, touch, done, failure } = started;
      const calls = new Map<number, ToolCall>();
      let text = '';
      let usage: number | null = null;
      try {
        if (!response.body) throw new ProviderError('The AI provider sent an empty answer');
        let finished = false;
        for await (const data of sseData(response.body, touch)) {
          if (data === '[DONE]') {
            finished = true;
            break;
          }
          const chunk = parseChunk(data);
          if (chunk.usage !== null) usage = chunk.usage;
          for (const call of chunk.calls) {
            const known = calls.get(call.index);
            if (known) {
              if (call.name && !known.name) known.name = call.name;
              if (call.id && !known.id) known.id = call.id;
              known.arguments += call.arguments;
            } else {
              calls.set(call.index, { id: call.id, name: call.name, arguments: call.arguments });
            }
          }
          if (chunk.text) {
            text += chunk.text;
            yield chunk.text;
          }
        }
        if (!finished) throw new ProviderError('The AI provider ended the answer early');
      } catch (error) {
        throw failure(error);
      } finally {
        done();
      }
      const asked = [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }))
        .filter((call) => call.name);
      if (asked.length > 0) yield { type: 'toolCalls', calls: asked } satisfies ProviderEvent;
      const estimate =
        wire.reduce<number>((n, t) => n + Math.ceil(JSON.stringify(t).length / 4), 0) +
        estimateTokens({ role: 'assistant', content: text + asked.map((c) => c.arguments).join('') });
      yield {
        type: 'usage',
        tokens: usage ?? estimate,
        estimated: usage === null,
      } satisfies ProviderEvent;
    },
    async title(opening, signal) {
      const turns: ChatTurn[] = [
        { role: 'system', content: TITLE_PROMPT },
        { role: 'user', content: opening.slice(0, 4000) },
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

/** A piece of a streamed tool call: `index` says which call it continues. */
interface CallPiece {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** What a chunk adds (text, pieces of tool calls, the usage count), or throws the error it reports. */
function parseChunk(data: string): { text: string; calls: CallPiece[]; usage: number | null } {
  let json: {
    choices?: { delta?: { content?: unknown; tool_calls?: unknown } }[];
    usage?: { total_tokens?: unknown; prompt_tokens?: unknown; completion_tokens?: unknown } | null;
    error?: { message?: unknown };
  };
  try {
    json = JSON.parse(data);
  } catch {
    throw new ProviderError('The AI provider sent a malformed stream');
  }
  if (json === null || typeof json !== 'object')
    throw new ProviderError('The AI provider sent a malformed stream');
  if (json.error) {
    const message = typeof json.error.message === 'string' ? clean(json.error.message) : 'unknown error';
    throw new ProviderError(`The AI provider failed: ${message}`);
  }
  const delta = Array.isArray(json.choices) ? json.choices[0]?.delta : undefined;
  const calls: CallPiece[] = [];
  if (Array.isArray(delta?.tool_calls)) {
    for (const [position, raw] of (delta.tool_calls as unknown[]).entries()) {
      if (!raw || typeof raw !== 'object') continue;
      const call = raw as {
        index?: unknown;
        id?: unknown;
        function?: { name?: unknown; arguments?: unknown };
      };
      const index = typeof call.index === 'number' && Number.isInteger(call.index) ? call.index : position;
      calls.push({
        index,
        id: str(call.id),
        name: str(call.function?.name),
        arguments: str(call.function?.arguments),
      });
    }
  }
  const u = json.usage;
  const total =
    u && typeof u === 'object'
      ? typeof u.total_tokens === 'number'
        ? u.total_tokens
        : typeof u.prompt_tokens === 'number' && typeof u.completion_tokens === 'number'
          ? u.prompt_tokens + u.completion_tokens
          : null
      : null;
  return {
    text: str(delta?.content),
    calls,
    usage: total !== null && Number.isFinite(total) && total >= 0 ? Math.round(total) : null,
  };
}

/** A tool round's turn as the chat completions API takes it. */
function wireTurn(turn: ToolTurn): unknown {
  if (turn.role === 'tool') return { role: 'tool', tool_call_id: turn.toolCallId, content: turn.content };
  return {
    role: 'assistant',
    content: turn.content || null,
    tool_calls: turn.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    })),
  };
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
