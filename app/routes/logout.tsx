import { type ActionFunctionArgs, redirect } from "@remix-run/cloudflare";

import { recordAudit } from "~/server/audit.server";
import { endSession } from "~/server/auth/end-sessions.server";
import { getSessionUser } from "~/server/auth/guards.server";
import { clearSessionCookie } from "~/server/auth/session.server";
import { redirectDocumentWithToast } from "~/server/toast.server";

// Signing out is a POST (a link or prefetch must not sign anyone out); a GET just goes home.
export async function loader() {
  return redirect("/");
}

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const user = await getSessionUser(args);
  const headers = { "Set-Cookie": await clearSessionCookie() };
  if (!user) {
    return redirectDocumentWithToast(
      "/login",
      { kind: "info", title: "auth.signOut.alreadyTitle", description: "auth.signOut.alreadyBody" },
      context.config,
      { headers },
    );
  }
  await endSession(context, user.sessionId);
  await recordAudit(context.db, request, { action: "auth.sign_out", actorId: user.userId, targetType: "user", targetId: user.userId });
  // The known-device mark stays: a device its owner signed out of is still theirs, so guesses at the
  // password from elsewhere (even from the same network) never lock the owner out of it
  // (docs/decisions/0024). It vouches for nothing by itself: a password or Google is still needed.
  // A document load: the sign-in page is static, and nothing of the account's pages stays in memory.
  return redirectDocumentWithToast("/login", { kind: "success", title: "auth.signOut.doneTitle" }, context.config, { headers });
}
