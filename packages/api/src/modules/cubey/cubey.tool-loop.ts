/**
 * One answer from a model offered Cubey's tools: the model streams text or asks for calls; the
 * calls run (as the asking member, cubey.tools.ts), their results go back to it, and it goes on,
 * at most `maxRounds` rounds of calls an answer. The last request offers no tools, so the model
 * has to answer with what it found. Yields the answer's text and each look-up made; each
 * request's tokens go to `spend`: the provider's count, or, for a request cut short (Stop, a
 * failure) before it sent one, an estimate, so stopping an answer never makes it free.
 *
 * Under a daily limit (`budget`, cubey.budget.ts) each request first reserves its estimate. One
 * that would cross the limit goes as the last, without tools, so the model answers with what it
 * found; with nothing left the answer ends with what it has written (or, with nothing written,
 * fails with the limit's message).
 */
import type { AuthedContext } from '../../context.types.js';
import { ANSWER_TOKENS_ESTIMATE, type AnswerBudget } from './cubey.budget.js';
import type { CubeyLookup } from './cubey.schema.js';
import { CUBEY_TOOL_SPECS, runToolCall } from './cubey.tools.js';
import { DEFAULT_CONTEXT_TOKENS } from './providers/openai.provider.js';
import {
  type CubeyProvider,
  estimateTokens,
  type GenerateRequest,
  systemPrompt,
  type ToolSpec,
  type ToolTurn,
} from './providers/provider.js';

export const TOOL_ROUNDS = 5;
/** Calls of one round beyond this are answered with an error, not run. */
export const CALLS_PER_ROUND = 4;

export type AnswerPiece = string | { type: 'lookup'; lookup: CubeyLookup };

export interface ToolLoopOptions {
  /** A context of the asking member for each call; without one, no tools are offered. */
  asker: (() => AuthedContext) | null;
  maxRounds: number;
  /** Counts the tokens of one request. */
  spend: (tokens: number) => Promise<void>;
  /** The member's daily tokens, reserved before each request; null: no limit. */
  budget?: AnswerBudget | null | undefined;
  logError?: ((message: string, error: unknown) => void) | undefined;
}

export async function* answerWithTools(
  provider: CubeyProvider,
  request: Omit<GenerateRequest, 'tools' | 'toolTurns'>,
  options: ToolLoopOptions,
): AsyncGenerator<AnswerPiece> {
  const { asker, maxRounds } = options;
  const turns: ToolTurn[] = [];
  let written = '';
  for (let round = 0; ; round += 1) {
    let offer = asker && round < maxRounds ? CUBEY_TOOL_SPECS : undefined;
    if (options.budget) {
      const verdict = await options.budget.reserve(
        requestEstimate(request.messages, turns, offer),
        request.signal,
      );
      if (verdict === 'refused') {
        if (written === '') throw options.budget.spent();
        return;
      }
      // Crossing the limit: the last request, with what was found so far.
      if (verdict === 'last') offer = undefined;
    }
    let text = '';
    let calls: { id: string; name: string; arguments: string }[] = [];
    let reported = false;
    try {
      for await (const piece of provider.stream({ ...request, tools: offer, toolTurns: turns })) {
        if (typeof piece === 'string') {
          // A new round's text starts a paragraph of its own.
          if (text === '' && written !== '' && !written.endsWith('\n')) {
            written += '\n\n';
            yield '\n\n';
          }
          text += piece;
          written += piece;
          yield piece;
        } else if (piece.type === 'toolCalls') calls = piece.calls;
        else {
          reported = true;
          await options.spend(piece.tokens);
        }
      }
    } finally {
      if (!reported && provider.kind === 'openai') {
        const asked = [...request.messages, ...turns].reduce(
          (n, t) => n + estimateTokens({ role: 'user', content: JSON.stringify(t) }),
          0,
        );
        await options
          .spend(asked + estimateTokens({ role: 'assistant', content: text }))
          .catch((error: unknown) => options.logError?.('cubey usage not counted', error));
      }
    }
    if (!offer || !asker || calls.length === 0 || request.signal.aborted) return;
    turns.push({ role: 'assistant', content: text, toolCalls: calls });
    for (const [index, call] of calls.entries()) {
      if (index >= CALLS_PER_ROUND) {
        turns.push({
          role: 'tool',
          toolCallId: call.id,
          content: JSON.stringify({ error: `At most ${CALLS_PER_ROUND} calls a round` }),
        });
        continue;
      }
      let content: string;
      try {
        const ran = await runToolCall(asker(), call);
        content = ran.content;
        if (ran.lookup) yield { type: 'lookup', lookup: ran.lookup };
      } catch (error) {
        options.logError?.('cubey tool failed', error);
        content = JSON.stringify({ error: 'The look-up failed' });
      }
      turns.push({ role: 'tool', toolCallId: call.id, content });
    }
  }
}

/**
 * What a request will likely spend, reserved before it: its prompt (the history, at most what
 * the provider keeps of it by default, the tool rounds so far, the tools offered) at about four characters a token, and
 * ANSWER_TOKENS_ESTIMATE for the model's answer. The provider's count replaces it afterwards.
 */
export function requestEstimate(
  messages: readonly { role: string; content: string }[],
  turns: readonly ToolTurn[],
  tools: readonly ToolSpec[] | undefined,
): number {
  const history = messages.reduce(
    (n, t) => n + estimateTokens({ role: 'user', content: JSON.stringify(t) }),
    estimateTokens({ role: 'system', content: systemPrompt() }),
  );
  const rounds = turns.reduce((n, t) => n + estimateTokens({ role: 'user', content: JSON.stringify(t) }), 0);
  const offered = tools ? Math.ceil(JSON.stringify(tools).length / 4) : 0;
  return Math.min(history, DEFAULT_CONTEXT_TOKENS) + rounds + offered + ANSWER_TOKENS_ESTIMATE;
}
