/** Sending a message to Cubey: a new question (in a new session when none is given) and its answer. */
import type { AuthedContext } from '../../context.types.js';
import { startAnswer } from './cubey.answer.js';
import type { CubeyChatInput, CubeyStarted } from './cubey.schema.js';

export function sendMessage(ctx: AuthedContext, input: CubeyChatInput): Promise<CubeyStarted> {
  return startAnswer(ctx, { sessionId: input.sessionId ?? null, message: input.message });
}
