// Completing a sign-in, whichever way the person proved who they are: a new session (a new id every
// time), the old one ended, the audit entry, their language, and the way on. The server half shared by
// the pages that sign someone in: login.tsx, sign-in-link.tsx and auth.google.callback.tsx.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { and, eq } from "drizzle-orm";

import { auditLog, doctors, profiles, userRoles } from "~/db/schema";
import { isLanguage } from "~/domain/languages";
import { safeRedirectPath } from "~/domain/safe-redirect";
import { languageCookie } from "~/i18n.server";
import { recordAudit } from "~/server/audit.server";
import { endSession } from "~/server/auth/end-sessions.server";
import { rememberDevice } from "~/server/auth/known-device.server";
import { createSession, findSessionUser } from "~/server/auth/session.server";
import { savePreferredLanguage } from "~/server/db/profiles.server";
import { toastHeaders } from "~/server/toast.server";

export const AFTER_SIGN_IN_DEFAULT = "/auth-callback";

export async function completeSignIn(
  context: AppLoadContext,
  request: Request,
  userId: string,
  options: { redirectTo: string | null | undefined; method: "password" | "google" | "email_link"; email: string },
) {
  const now = new Date();
  const previous = await findSessionUser(context.db, request, now);
  if (previous) await endSession(context, previous.sessionId);
  const { setCookie } = await createSession(context.db, userId, now, request.headers.get("User-Agent"));
  await recordAudit(context.db, request, {
    action: "auth.sign_in.success",
    actorId: userId,
    targetType: "user",
    targetId: userId,
    details: { method: options.method },
  });

  const { profile, role, doctorStatus, firstSignIn } = await signInFacts(context, userId);
  const headers = new Headers({ "Set-Cookie": setCookie });
  // This browser has proved the account: guessing elsewhere never slows it down.
  headers.append("Set-Cookie", await rememberDevice(request, options.email, context.config));
  if (profile) {
    // A language chosen on this browser before signing in stays, and becomes the profile's; without
    // one, the site speaks the language of the profile.
    const chosen = await languageCookie.parse(request.headers.get("Cookie"));
    const language = isLanguage(chosen) ? chosen : profile.preferredLanguage;
    if (language !== profile.preferredLanguage) await savePreferredLanguage(context.db, userId, language);
    headers.append("Set-Cookie", await languageCookie.serialize(language));
  }
  // An inactive doctor is signed straight out again (auth-callback): no welcome for them.
  if (role !== "doctor" || doctorStatus === "active") {
    const toast = await toastHeaders(context.config, {
      kind: "success",
      // Someone signing in for the first time (an invited doctor, a new patient) is welcomed, not welcomed back.
      title: firstSignIn ? "auth.signIn.welcome" : "auth.signIn.welcomeBack",
      description: `auth.signIn.signedInAs.${role}`,
      values: { name: profile?.firstName ?? "" },
    });
    for (const cookie of toast.getSetCookie()) headers.append("Set-Cookie", cookie);
  }
  return redirect(safeRedirectPath(options.redirectTo, AFTER_SIGN_IN_DEFAULT), { headers });
}

async function signInFacts(context: AppLoadContext, userId: string) {
  const [profile, role, doctor, signIns] = await Promise.all([
    context.db.query.profiles.findFirst({ columns: { firstName: true, preferredLanguage: true }, where: eq(profiles.userId, userId) }),
    context.db.query.userRoles.findFirst({ columns: { role: true }, where: eq(userRoles.userId, userId) }),
    context.db.query.doctors.findFirst({ columns: { status: true }, where: eq(doctors.userId, userId) }),
    // This sign-in is already audited: one entry means it is the first.
    context.db.$count(auditLog, and(eq(auditLog.actorId, userId), eq(auditLog.action, "auth.sign_in.success"))),
  ]);
  return { profile, role: role?.role ?? "patient", doctorStatus: doctor?.status ?? null, firstSignIn: signIns <= 1 };
}
