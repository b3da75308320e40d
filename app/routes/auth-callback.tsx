import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";

import { homePathForRole } from "~/domain/roles";
import { ensureRoleRow, userExists } from "~/server/auth/accounts.server";
import { endSession } from "~/server/auth/end-sessions.server";
import { requireUser, signOutInactiveDoctor } from "~/server/auth/guards.server";
import { clearSessionCookie } from "~/server/auth/session.server";
import { redirectWithToast } from "~/server/toast.server";

// The gate after every sign-in (spec section 6): each person goes where their role and state say.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const { db, config } = args.context;
  if (!(await userExists(db, user.userId))) {
    await endSession(args.context, user.sessionId);
    return redirectWithToast("/login", { kind: "error", title: "auth.signIn.errorTitle", description: "auth.signIn.userMissing" }, config, {
      headers: { "Set-Cookie": await clearSessionCookie() },
    });
  }
  if (!user.hasRoleRow) await ensureRoleRow(db, user.userId, new Date());
  if (user.role === "doctor" && user.doctorStatus !== "active") return signOutInactiveDoctor(args, user);
  if (user.role === "patient" && !user.hasConsented) return redirect("/consent");
  return redirect(homePathForRole(user.role));
}
