// Guards that throw: the first line of every loader and action says who may run it. Anonymous visitors
// go to /login (and come back after), a wrong role goes to /access-denied, an inactive doctor is signed
// out and sent to /account-issue, a patient without consent goes to /consent.
import { type AppLoadContext, redirect } from "@remix-run/cloudflare";

import type { Role } from "~/domain/roles";
import { endAllSessions } from "~/server/auth/end-sessions.server";
import { clearSessionCookie, findSessionUser, type SessionUser } from "~/server/auth/session.server";

interface GuardArgs {
  request: Request;
  context: AppLoadContext;
}

export function getSessionUser({ request, context }: GuardArgs) {
  return findSessionUser(context.db, request, new Date());
}

/** The path (with query) of the request, to come back to after signing in. */
function currentPath(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

function loginRedirect(request: Request) {
  return redirect(`/login?redirect=${encodeURIComponent(currentPath(request))}`);
}

export async function requireUser(args: GuardArgs): Promise<SessionUser> {
  const user = await getSessionUser(args);
  if (!user) throw loginRedirect(args.request);
  return user;
}

/** Signs the inactive doctor out everywhere (every session, every socket) and sends them to /account-issue. */
export async function signOutInactiveDoctor(args: GuardArgs, user: SessionUser): Promise<never> {
  await endAllSessions(args.context, user.userId);
  throw redirect("/account-issue", { headers: { "Set-Cookie": await clearSessionCookie() } });
}

export async function requireRole(args: GuardArgs, ...roles: Role[]): Promise<SessionUser> {
  const user = await requireUser(args);
  if (!roles.includes(user.role)) throw redirect("/access-denied");
  if (user.role === "doctor" && user.doctorStatus !== "active") await signOutInactiveDoctor(args, user);
  return user;
}

export const requireActiveDoctor = (args: GuardArgs) => requireRole(args, "doctor");
export const requireAdmin = (args: GuardArgs) => requireRole(args, "admin");

/** A patient who has given both consents; one who has not is sent to give them first. */
export async function requirePatient(args: GuardArgs): Promise<SessionUser> {
  const user = await requireRole(args, "patient");
  if (!user.hasConsented) throw redirect(`/consent?redirect=${encodeURIComponent(currentPath(args.request))}`);
  return user;
}
