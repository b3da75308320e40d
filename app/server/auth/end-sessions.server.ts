// Ending sessions: sign-out, a password change or a doctor's deactivation delete rows, which ends those
// sessions at once, and closes their live room sockets too (a socket lives no longer than its
// session: docs/decisions/0012). Kept apart from reading sessions, which the rooms' guard needs.
import { and, eq, lt, ne, or, type SQL } from "drizzle-orm";

import { sessions } from "~/db/schema";
import { SESSION_IDLE_TIMEOUT_MS } from "~/domain/constants";
import type { Database } from "~/server/db/client.server";
import { disconnectSessions } from "~/server/rooms.server";

/** What ending sessions needs: D1 for the rows, the rooms for their sockets. */
export interface SessionContext {
  db: Database;
  cloudflare: { env: Env };
}

/** Ends the sessions `where` selects: their rows go, and so do their live room sockets. */
async function endSessionsWhere(context: SessionContext, where: SQL | undefined) {
  const ended = await context.db.delete(sessions).where(where).returning({ id: sessions.id });
  await disconnectSessions(
    context.cloudflare.env,
    context.db,
    ended.map((session) => session.id),
  );
  return ended.length;
}

export function endSession(context: SessionContext, sessionId: string) {
  return endSessionsWhere(context, eq(sessions.id, sessionId));
}

/** Ends every session of `userId` but the one in use (after a password change). */
export function endOtherSessions(context: SessionContext, userId: string, keepSessionId: string) {
  return endSessionsWhere(context, and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)));
}

/** Ends every session of `userId` (password reset, deactivation, an unproven account taken back). */
export function endAllSessions(context: SessionContext, userId: string) {
  return endSessionsWhere(context, eq(sessions.userId, userId));
}

/** Housekeeping: ends the sessions that have run out (idle too long or past their end). */
export function endLapsedSessions(context: SessionContext, now: Date) {
  return endSessionsWhere(
    context,
    or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS))),
  );
}
