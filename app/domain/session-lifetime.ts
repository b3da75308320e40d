import { SESSION_IDLE_TIMEOUT_MS } from "./constants";

/** When a session ends if nothing happens: its idle timeout or its absolute end, whichever is first. */
export function sessionEndsAt(session: { lastSeenAt: Date; expiresAt: Date }): Date {
  return new Date(Math.min(session.lastSeenAt.getTime() + SESSION_IDLE_TIMEOUT_MS, session.expiresAt.getTime()));
}
