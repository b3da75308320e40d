// Server-side sessions: the cookie holds a random token, D1 holds its SHA-256 with an idle timeout and
// an absolute lifetime. Sign-in, renewal and sign-out build on these (docs/decisions/0005).
import { createCookie } from "@remix-run/cloudflare";
import { and, eq } from "drizzle-orm";
import { doctors, sessions, userRoles } from "~/db/schema";
import { SESSION_ABSOLUTE_LIFETIME_MS, SESSION_IDLE_TIMEOUT_MS } from "~/domain/constants";
import type { DoctorStatus, Role } from "~/domain/roles";
import type { Database } from "~/server/db/client.server";

export const sessionCookie = createCookie("__Host-qoda_session", {
  path: "/",
  sameSite: "lax",
  secure: true,
  httpOnly: true,
  maxAge: SESSION_ABSOLUTE_LIFETIME_MS / 1000,
});

export interface SessionUser {
  userId: string;
  sessionId: string;
  role: Role;
  /** Only for doctors: whether an admin has them active. */
  doctorStatus: DoctorStatus | null;
}

async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Starts a session for `userId`; returns the Set-Cookie header value that carries it. */
export async function createSession(db: Database, userId: string, now: Date, userAgent: string | null = null) {
  const token = randomToken();
  const sessionId = await sha256Hex(token);
  await db.insert(sessions).values({
    id: sessionId,
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME_MS),
    userAgent,
  });
  return { sessionId, setCookie: await sessionCookie.serialize(token) };
}

/** The signed-in user behind `request`'s cookie, or null when there is none or it has lapsed. */
export async function findSessionUser(db: Database, request: Request, now: Date): Promise<SessionUser | null> {
  const token: unknown = await sessionCookie.parse(request.headers.get("Cookie"));
  if (typeof token !== "string" || token.length === 0) return null;
  const sessionId = await sha256Hex(token);
  const [row] = await db
    .select({
      userId: sessions.userId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      role: userRoles.role,
      doctorStatus: doctors.status,
    })
    .from(sessions)
    .innerJoin(userRoles, eq(userRoles.userId, sessions.userId))
    .leftJoin(doctors, eq(doctors.userId, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row) return null;
  const idleSince = now.getTime() - row.lastSeenAt.getTime();
  if (idleSince > SESSION_IDLE_TIMEOUT_MS || row.expiresAt.getTime() <= now.getTime()) {
    await db.delete(sessions).where(and(eq(sessions.id, sessionId)));
    return null;
  }
  return { userId: row.userId, sessionId, role: row.role, doctorStatus: row.doctorStatus ?? null };
}
