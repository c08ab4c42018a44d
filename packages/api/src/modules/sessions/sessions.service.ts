/**
 * The member's own sessions: list them (device, last seen, which one is this), end one, or end
 * every other. Ending goes through session.service.ts, which deletes the rows and tells every
 * instance at commit, so the ended sessions' sockets close everywhere.
 */
import type { AuthedContext } from '../../context.js';
import { isUuid, notFound } from '../../errors.js';
import { deleteSession, revokeSessions } from '../auth/session.service.js';
import { describeDevice } from './device.js';
import type { SessionIdInput, SessionItem } from './sessions.schema.js';

const iso = (value: Date | string) => new Date(value).toISOString();

export async function listSessions(ctx: AuthedContext): Promise<{ sessions: SessionItem[] }> {
  const now = ctx.now();
  const rows = await ctx.em
    .getConnection()
    .execute<{ id: string; user_agent: string | null; created_at: Date; last_seen_at: Date }[]>(
      `select id, user_agent, created_at, last_seen_at from sessions
      where user_id = ? and expires_at > ?
      order by (id = ?) desc, last_seen_at desc, created_at desc
      limit 200`,
      [ctx.session.user.id, now, ctx.session.id],
    );
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
): Promise<{ ended: number }> {
  if (!isUuid(sessionId)) throw notFound('Session not found');
  const rows = await ctx.em
    .getConnection()
    .execute<{ id: string }[]>('select id from sessions where id = ? and user_id = ?', [
      sessionId,
      ctx.session.user.id,
    ]);
  if (rows.length === 0) throw notFound('Session not found');
  await deleteSession(ctx, ctx.session.user.id, sessionId);
  if (sessionId === ctx.session.id) ctx.response.clearSessionCookie();
  return { ended: 1 };
}

/** "Log out everywhere else": every session of the caller but this one. */
export async function endOtherSessions(ctx: AuthedContext): Promise<{ ended: number }> {
  const ended = await revokeSessions(ctx, ctx.session.user.id, ctx.session.id);
  return { ended };
}
