import { type ActionFunctionArgs, redirect } from "@remix-run/cloudflare";

import { recordAudit } from "~/server/audit.server";
import { endSession } from "~/server/auth/end-sessions.server";
import { getSessionUser } from "~/server/auth/guards.server";
import { forgetDevice } from "~/server/auth/known-device.server";
import { clearSessionCookie } from "~/server/auth/session.server";
import { redirectWithToast } from "~/server/toast.server";

// Signing out is a POST (a link or prefetch must not sign anyone out); a GET just goes home.
export async function loader() {
  return redirect("/");
}

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const user = await getSessionUser(args);
  const headers = { "Set-Cookie": await clearSessionCookie() };
  if (!user) {
    return redirectWithToast(
      "/login",
      { kind: "info", title: "auth.signOut.alreadyTitle", description: "auth.signOut.alreadyBody" },
      context.config,
      { headers },
    );
  }
  await endSession(context, user.sessionId);
  await recordAudit(context.db, request, { action: "auth.sign_out", actorId: user.userId, targetType: "user", targetId: user.userId });
  // A shared computer should not keep vouching for this account once its owner has signed out.
  const forgotten = await forgetDevice(request, user.email, context.config);
  const signOutHeaders = new Headers(headers);
  if (forgotten) signOutHeaders.append("Set-Cookie", forgotten);
  return redirectWithToast("/login", { kind: "success", title: "auth.signOut.doneTitle" }, context.config, { headers: signOutHeaders });
}
