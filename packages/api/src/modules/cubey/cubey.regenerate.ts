/** Regenerating: the session's last answer is replaced by a new one to the same question. */
import type { AuthedContext } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { conflict } from '../../errors.js';
import { startAnswer } from './cubey.answer.js';
import { deleteMessage } from './cubey.repository.js';
import type { CubeyStarted } from './cubey.schema.js';

export function regenerate(ctx: AuthedContext, sessionId: string): Promise<CubeyStarted> {
  return startAnswer(ctx, {
    sessionId,
    message: null,
    prepare: async (em, rows) => {
      const last = rows.at(-1);
      if (last?.role !== 'assistant') throw conflict(ERROR_REASONS.NOTHING_TO_REGENERATE);
      await deleteMessage(em, last.id);
      rows.pop();
      return null;
    },
  });
}
