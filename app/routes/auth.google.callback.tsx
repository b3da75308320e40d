import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { detectLanguage } from "~/i18n.server";
import { recordAudit } from "~/server/audit.server";
import {
  createPatient,
  findUserByEmail,
  findUserByOAuthAccount,
  linkOAuthAccount,
  markEmailConfirmed,
  revokeUnprovenCredentials,
} from "~/server/auth/accounts.server";
import { afterGoogleCookie, googleAuthenticator, type GoogleProfile } from "~/server/auth/google.server";
import { redirectWithToast } from "~/server/toast.server";

import { completeSignIn } from "./sign-in.server";

// Public: where Google sends the person back. A first Google sign-in creates a patient, who still has
// to give consent at the sign-in gate.
export async function loader({ request, context }: LoaderFunctionArgs) {
  let profile: GoogleProfile;
  try {
    profile = await googleAuthenticator(context, request).authenticate("google", request);
  } catch (error) {
    console.error(JSON.stringify({ event: "google_sign_in_failed", error: String(error) }));
    await recordAudit(context.db, request, {
      action: "auth.sign_in.failure",
      actorId: null,
      details: { method: "google", error: String(error) },
    });
    return redirectWithToast(
      "/login",
      { kind: "error", title: "auth.google.errorTitle", description: "auth.google.errorBody" },
      context.config,
    );
  }
  // Only an address Google has verified may sign in: it is how we know whose it is.
  if (!profile.emailVerified) {
    return redirectWithToast(
      "/login",
      { kind: "error", title: "auth.google.errorTitle", description: "auth.google.unverifiedEmail" },
      context.config,
    );
  }
  const now = new Date();
  let userId = await findUserByOAuthAccount(context.db, "google", profile.sub);
  if (!userId) {
    const existing = await findUserByEmail(context.db, profile.email);
    if (existing) {
      // Google vouches for the address, so it joins the account that has it. If that account never
      // confirmed the address, whoever created it may not own it: their password and sessions go.
      userId = existing.id;
      if (!existing.emailConfirmedAt) await revokeUnprovenCredentials(context, userId);
      await markEmailConfirmed(context.db, userId, now);
    }
  }
  if (!userId) {
    userId = await createPatient(
      context.db,
      {
        firstName: profile.givenName || profile.email.split("@")[0]!,
        lastName: profile.familyName,
        email: profile.email,
        passwordHash: null,
        consented: false,
        emailConfirmed: profile.emailVerified,
        preferredLanguage: await detectLanguage(request),
      },
      now,
    );
    if (!userId)
      return redirectWithToast(
        "/login",
        { kind: "error", title: "auth.google.errorTitle", description: "auth.signUp.emailTaken" },
        context.config,
      );
    await recordAudit(context.db, request, {
      action: "auth.sign_up",
      actorId: userId,
      targetType: "user",
      targetId: userId,
      details: { method: "google" },
    });
  }
  await linkOAuthAccount(context.db, "google", profile.sub, userId, now);
  const redirectTo = (await afterGoogleCookie.parse(request.headers.get("Cookie"))) as string | null;
  const response = await completeSignIn(context, request, userId, { redirectTo, method: "google", email: profile.email });
  response.headers.append("Set-Cookie", await afterGoogleCookie.serialize("", { maxAge: 0 }));
  return response;
}
