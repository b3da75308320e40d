// Server-side sessions (docs/decisions/0005): the cookie holds a random token, D1 holds its SHA-256
// with an idle timeout and an absolute lifetime. Activity slides the idle timeout. This module starts
// and reads sessions; end-sessions.server.ts ends them (and closes their room sockets).
import { createCookie } from "@remix-run/cloudflare";
import { and, eq, isNull } from "drizzle-orm";

import { doctors, profiles, sessions, userRoles, users } from "~/db/schema";
import { SESSION_ABSOLUTE_LIFETIME_MS, SESSION_TOUCH_INTERVAL_MS } from "~/domain/constants";
import type { Language } from "~/domain/languages";
import type { DoctorStatus, Role } from "~/domain/roles";
import { sessionEndsAt } from "~/domain/session-lifetime";
import { randomToken, sha256Hex } from "~/server/auth/tokens.server";
import type { Database } from "~/server/db/client.server";

export const SESSION_COOKIE_NAME = "__Host-qoda_session";

const sessionCookie = createCookie(SESSION_COOKIE_NAME, {
  path: "/",
  sameSite: "lax",
  secure: true,
  httpOnly: true,
  maxAge: SESSION_ABSOLUTE_LIFETIME_MS / 1000,
});

export interface SessionUser {
  userId: string;
  sessionId: string;
  email: string;
  firstName: string | null;
  /** A user without a role row counts as a patient (spec); `hasRoleRow` says whether one exists. */
  role: Role;
  hasRoleRow: boolean;
  /** Only for doctors: whether an admin has them active. */
  doctorStatus: DoctorStatus | null;
  hasConsented: boolean;
  preferredLanguage: Language | null;
  /** When this session ends if nothing else happens (idle timeout or absolute end). */
  sessionEndsAt: Date;
}

/** Starts a session for `userId`; returns its id and the Set-Cookie header value that carries it. */
export async function createSession(db: Database, userId: string, now: Date, userAgent: string | null = null) {
  const token = randomToken();
  const sessionId = await sha256Hex(token);
  await db.insert(sessions).values({
    id: sessionId,
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME_MS),
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  return { sessionId, setCookie: await sessionCookie.serialize(token) };
}

/** The Set-Cookie header value that removes the session cookie from the browser. */
export function clearSessionCookie() {
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}

// Loaders of one request share the lookup instead of each reading D1.
const lookups = new WeakMap<Request, Promise<SessionUser | null>>();

/** The signed-in user behind `request`'s cookie, or null when there is none or it has lapsed. */
export function findSessionUser(db: Database, request: Request, now: Date): Promise<SessionUser | null> {
  let lookup = lookups.get(request);
  if (!lookup) {
    lookup = lookUpSession(db, request, now);
    lookups.set(request, lookup);
  }
  return lookup;
}

async function lookUpSession(db: Database, request: Request, now: Date): Promise<SessionUser | null> {
  const token: unknown = await sessionCookie.parse(request.headers.get("Cookie"));
  if (typeof token !== "string" || token.length === 0) return null;
  const sessionId = await sha256Hex(token);
  const [row] = await db
    .select({
      userId: sessions.userId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      email: users.email,
      role: userRoles.role,
      doctorStatus: doctors.status,
      firstName: profiles.firstName,
      consentTerms: profiles.consentTerms,
      consentPrivacy: profiles.consentPrivacy,
      preferredLanguage: profiles.preferredLanguage,
    })
    .from(sessions)
    // A closed account has no sessions; the join makes sure of it even against a race with the closing.
    .innerJoin(users, and(eq(users.id, sessions.userId), isNull(users.closedAt)))
    .leftJoin(userRoles, eq(userRoles.userId, sessions.userId))
    .leftJoin(doctors, eq(doctors.userId, sessions.userId))
    .leftJoin(profiles, eq(profiles.userId, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row) return null;
  if (sessionEndsAt(row).getTime() <= now.getTime()) {
    // Its sockets, if any, are closed by their rooms' own check at this same end (session-bound-room).
    await db.delete(sessions).where(eq(sessions.id, sessionId));
    return null;
  }
  let lastSeenAt = row.lastSeenAt;
  if (now.getTime() - lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
    lastSeenAt = now;
  }
  return {
    userId: row.userId,
    sessionId,
    email: row.email,
    firstName: row.firstName,
    role: row.role ?? "patient",
    hasRoleRow: row.role !== null,
    doctorStatus: row.doctorStatus ?? null,
    hasConsented: Boolean(row.consentTerms && row.consentPrivacy),
    preferredLanguage: row.preferredLanguage ?? null,
    sessionEndsAt: sessionEndsAt({ lastSeenAt, expiresAt: row.expiresAt }),
  };
}
