/**
 * The OpenAI-compatible chat completions client (OpenAI, Ollama, vLLM, llama.cpp's server), on the
 * official `openai` SDK pointed at `baseUrl`: it sends the request and reads the streamed chunks.
 * What stays ours: every failure becomes a ProviderError whose message a user can read
 * (unreachable, an error status, a timeout, a broken stream), and what the provider wrote in it
 * never shows any part of a key (`redactSecrets`: providers echo keys); the SDK logs nothing,
 * retries nothing and tells the provider nothing of this machine.
 *
 * Tools: offered as OpenAI `tools`; the streamed `tool_calls` pieces are put together and yielded
 * as one `toolCalls` event at the end of the model's turn. A model that refuses tools (an error
 * status whose text names tools or function calling, as Ollama, vLLM and llama.cpp answer) is
 * asked again without them, and remembered (per endpoint and model, for the life of the process)
 * so later answers go without tools at once. Each request ends with a `usage` event: the
 * provider's own count (`stream_options.include_usage`), or an estimate.
 */
import type { APIError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { ERROR_REASONS } from '../../../error-reasons.js';
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

/**
 * What the SDK would send of this machine (its OS, architecture and Node's version) and of its
 * own retries and timeout: nothing a provider needs.
 */
const UNSENT_HEADERS = Object.fromEntries(
  ['Lang', 'Package-Version', 'OS', 'Arch', 'Runtime', 'Runtime-Version', 'Retry-Count', 'Timeout'].map(
    (name) => [`X-Stainless-${name}`, null],
  ),
);

type Sdk = typeof import('openai');

/**
 * The SDK and its client, loaded at the first request: a server on the offline assistant never
 * loads it (over a tenth of a second of start-up, and its memory). The client reads an error
 * status's body as compatible servers write it (OpenAI and Ollama `{ error: { message } }` or
 * `{ error: "…" }`, vLLM `{ message }`, others plain text): the APIError's `error.message` holds
 * the provider's words.
 */
async function loadClient(options: ConstructorParameters<Sdk['OpenAI']>[0]) {
  const sdk = await import('openai');
  class CompatibleClient extends sdk.OpenAI {
    protected override makeStatusError(
      status: number,
      body: object | undefined,
      text: string | undefined,
      headers: Headers,
    ): APIError {
      return super.makeStatusError(
        status,
        { error: { message: errorDetail(body, text) } },
        undefined,
        headers,
      );
    }
  }
  return { sdk, client: new CompatibleClient(options) };
}

const TITLE_PROMPT =
  "Write a title of at most six words for a chat that starts with the exchange below (the member's first message, then the start of Cubey's answer). Answer with the title only, no quotes.";

export function createOpenAiProvider(options: OpenAiProviderOptions): CubeyProvider {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const budget = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const baseURL = options.baseUrl.replace(/\/+$/, '');
  const modelKey = `${baseURL}|${options.model}`;
  let loaded: ReturnType<typeof loadClient> | undefined;
  const ready = () =>
    (loaded ??= loadClient({
      baseURL,
      // Given, so the SDK reads no OPENAI_* variable; without a key no Authorization header goes.
      apiKey: options.apiKey ?? '',
      organization: null,
      project: null,
      webhookSecret: null,
      defaultHeaders: { ...UNSENT_HEADERS, ...(options.apiKey ? {} : { Authorization: null }) },
      // A failed answer is shown at once with its reason, and the member chooses to try again: a
      // retry here would hide an overloaded or refusing provider behind seconds of waiting, and
      // cost tokens twice. The one retry that is ours is asking again without tools.
      maxRetries: 0,
      timeout: timeoutMs,
      // Errors reach the log as ProviderErrors, redacted; the SDK writes nothing of its own.
      logLevel: 'off',
    }));

  /** A failure as the user reads it; `streaming`: the answer had begun to arrive. */
  const failure = (
    { APIConnectionError, APIConnectionTimeoutError, APIError }: Sdk,
    error: unknown,
    idle: IdleTimer,
    signal: AbortSignal,
    streaming: boolean,
  ): Error => {
    if (idle.timedOut() || error instanceof APIConnectionTimeoutError)
      return new ProviderError(`The AI provider did not answer within ${Math.round(timeoutMs / 1000)} s`);
    if (signal.aborted) return error instanceof Error ? error : new Error('aborted');
    const shown = (message: string) => new ProviderError(redactSecrets(message, [options.apiKey]));
    if (error instanceof ProviderError) return shown(error.message);
    if (error instanceof APIConnectionError) return new ProviderError(ERROR_REASONS.AI_PROVIDER_UNREACHABLE);
    if (error instanceof APIError) {
      const detail = clean(messageOf(error.error));
      // An error status, or an `error` in the stream instead of a chunk.
      if (error.status)
        return shown(`The AI provider answered ${error.status}${detail ? `: ${detail}` : ''}`);
      return shown(`The AI provider failed: ${detail || 'unknown error'}`);
    }
    if (error instanceof SyntaxError) return new ProviderError(ERROR_REASONS.AI_PROVIDER_MALFORMED_STREAM);
    return new ProviderError(
      streaming ? ERROR_REASONS.AI_PROVIDER_ENDED_EARLY : ERROR_REASONS.AI_PROVIDER_UNREACHABLE,
    );
  };

  return {
    kind: 'openai',
    async *stream({ messages, signal, tools, toolTurns }: GenerateRequest) {
      const turns = trimHistory({ role: 'system', content: systemPrompt() }, messages, budget);
      const wire: ChatCompletionMessageParam[] = [...turns, ...(toolTurns ?? []).map(wireTurn)];
      const offered = tools && tools.length > 0 && !refusedTools.has(modelKey) ? tools : undefined;
      const { sdk, client } = await ready();
      const idle = idleTimer(timeoutMs, signal);
      const ask = (withTools: boolean) =>
        client.chat.completions.create(
          {
            model: options.model,
            stream: true,
            stream_options: { include_usage: true },
            messages: wire,
            ...(withTools && offered
              ? {
                  tools: offered.map(
                    (t): ChatCompletionTool => ({
                      type: 'function',
                      function: { name: t.name, description: t.description, parameters: t.parameters },
                    }),
                  ),
                }
              : {}),
          },
          { signal: idle.signal },
        );
      const calls = new Map<number, ToolCall>();
      let text = '';
      let usage: number | null = null;
      let streaming = false;
      try {
        let chunks: AsyncIterable<ChatCompletionChunk>;
        try {
          chunks = await ask(true);
        } catch (error) {
          const refused =
            offered &&
            error instanceof sdk.APIError &&
            refusesTools(error.status ?? 0, messageOf(error.error));
          if (!refused) throw error;
          refusedTools.add(modelKey);
          idle.touch();
          chunks = await ask(false);
        }
        streaming = true;
        // The SDK ends the iteration quietly when the request is aborted (Stop, or the idle timer).
        for await (const chunk of chunks) {
          idle.touch();
          usage = usageOf(chunk) ?? usage;
          const delta = chunk.choices?.[0]?.delta;
          // A call comes in pieces: its id and name first, its arguments in parts, all by `index`.
          for (const [position, piece] of (delta?.tool_calls ?? []).entries()) {
            const index = Number.isInteger(piece.index) ? piece.index : position;
            const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
            calls.set(index, call);
            call.id ||= piece.id ?? '';
            call.name ||= piece.function?.name ?? '';
            call.arguments += piece.function?.arguments ?? '';
          }
          if (typeof delta?.content === 'string' && delta.content) {
            text += delta.content;
            yield delta.content;
          }
        }
        if (idle.timedOut() || signal.aborted) throw new Error('aborted');
      } catch (error) {
        throw failure(sdk, error, idle, signal, streaming);
      } finally {
        idle.done();
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
      const { sdk, client } = await ready();
      const idle = idleTimer(timeoutMs, signal);
      try {
        const answer = await client.chat.completions.create(
          { model: options.model, stream: false, messages: turns, max_tokens: 24 },
          { signal: idle.signal },
        );
        // A server that answers something else than JSON gives the SDK's text: no choices.
        const content = answer.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw new ProviderError(ERROR_REASONS.AI_PROVIDER_NO_TITLE);
        return titleFromWords(content.replace(/^["'\s]+|["'\s.]+$/g, ''));
      } catch (error) {
        throw failure(sdk, error, idle, signal, false);
      } finally {
        idle.done();
      }
    },
  };
}

interface IdleTimer {
  /** the SDK's request signal: aborted by Stop, or when no piece came for the timeout */
  signal: AbortSignal;
  timedOut(): boolean;
  /** re-arms the timer: a piece arrived */
  touch(): void;
  done(): void;
}

function idleTimer(timeoutMs: number, stop: AbortSignal): IdleTimer {
  const idle = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), timeoutMs);
  };
  touch();
  return {
    signal: AbortSignal.any([stop, idle.signal]),
    timedOut: () => idle.signal.aborted,
    touch,
    done: () => clearTimeout(timer),
  };
}

/** The provider's words in an error body: `error.message`, `error` itself, `message`, or the text. */
function errorDetail(body: object | undefined, text: string | undefined): string {
  const json = body as { error?: unknown; message?: unknown } | undefined;
  const message = messageOf(json?.error) || messageOf(json?.message);
  return clean(message || (json == null ? (text ?? '') : JSON.stringify(json)));
}

/** A string, or the `message` string of an object; '' otherwise. */
function messageOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const message = (value as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : '';
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

/** The tokens a chunk reports spent (`stream_options.include_usage`'s last chunk), or null. */
function usageOf({ usage }: ChatCompletionChunk): number | null {
  const total = usage ? (usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens) : Number.NaN;
  return Number.isFinite(total) && total >= 0 ? Math.round(total) : null;
}

/** A tool round's turn as the chat completions API takes it. */
function wireTurn(turn: ToolTurn): ChatCompletionMessageParam {
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
