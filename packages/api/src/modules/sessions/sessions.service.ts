/**
 * The member's own sessions: list them (device, last seen, which one is this), end one, or end
 * every other. Ending goes through session.service.ts (the cookie sessions themselves), which
 * deletes the rows and tells every instance at commit, so the ended sessions' sockets close
 * everywhere.
 */
import type { AuthedContext } from '../../context.js';
import { isUuid, notFound } from '../../errors.js';
import { describeDevice } from './session.device.js';
import { deleteSession, revokeSessions } from './session.service.js';
import { isSessionOf, listUserSessions } from './sessions.repository.js';
import type { EndSessionsResult, SessionIdInput, SessionListResult } from './sessions.schema.js';

const iso = (value: Date | string) => new Date(value).toISOString();

export async function listSessions(ctx: AuthedContext): Promise<SessionListResult> {
  const now = ctx.now();
  const rows = await listUserSessions(ctx.em, ctx.session.user.id, ctx.session.id, now);
  return {
    sessions: rows.map((row) => {
      const current = row.id === ctx.session.id;
      return {
        id: row.id,
        device: describeDevice(row.user_agent),
        createdAt: iso(row.created_at),
        lastSeenAt: current ? now.toISOString() : iso(row.last_seen_at),
        current,
      };
    }),
  };
}

/** Ends one of the caller's sessions (this one too: that is a logout). Someone else's is 404. */
export async function endSession(
  ctx: AuthedContext,
  { sessionId }: SessionIdInput,
): Promise<EndSessionsResult> {
  if (!isUuid(sessionId)) throw notFound('Session not found');
  if (!(await isSessionOf(ctx.em, sessionId, ctx.session.user.id))) throw notFound('Session not found');
  await deleteSession(ctx, ctx.session.user.id, sessionId);
  if (sessionId === ctx.session.id) ctx.response.clearSessionCookie();
  return { ended: 1 };
}

/** "Log out everywhere else": every session of the caller but this one. */
export async function endOtherSessions(ctx: AuthedContext): Promise<EndSessionsResult> {
  const ended = await revokeSessions(ctx, ctx.session.user.id, ctx.session.id);
  return { ended };
}
