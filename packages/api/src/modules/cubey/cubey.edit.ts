/**
 * Edit and resend: the caller's last question gets a new version and a new answer; the earlier
 * version and its answer are kept, hidden, to switch back to (cubey-chats.service.ts#switchVersion).
 */
import type { AuthedContext } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { conflict, isUuid, notFound } from '../../errors.js';
import { MESSAGE_NOT_FOUND, startAnswer } from './cubey.answer.js';
import type { CubeyStarted } from './cubey.schema.js';
import { findOwnQuestion, hideQuestion } from './cubey-chats.repository.js';

export async function editMessage(
  ctx: AuthedContext,
  messageId: string,
  message: string,
): Promise<CubeyStarted> {
  const userId = ctx.session.user.id;
  const found = isUuid(messageId) ? await findOwnQuestion(ctx.em, userId, messageId) : undefined;
  if (!found) throw notFound(MESSAGE_NOT_FOUND);
  return startAnswer(ctx, {
    sessionId: found.session_id,
    message,
    prepare: async (em, rows, sessionId) => {
      // Read again under the session's lock: the question may have changed since.
      const question = await findOwnQuestion(em, userId, messageId);
      const at = rows.findIndex((r) => r.id === messageId);
      if (!question || question.session_id !== sessionId || at < 0) throw notFound(MESSAGE_NOT_FOUND);
      if (rows.slice(at + 1).some((r) => r.role === 'user')) {
        throw conflict(ERROR_REASONS.ONLY_LAST_MESSAGE_EDITABLE);
      }
      await hideQuestion(
        em,
        messageId,
        rows.slice(at + 1).map((r) => r.id),
      );
      rows.splice(at);
      return question.group_id;
    },
  });
}
