// Setting a password from a one-time link: a reset (ends every session) or an invite. Either confirms
// the email, which the link proved (the owner of an address someone else signed up with takes it back).
// The server half shared by reset-password.tsx and invite.tsx.
import { type AppLoadContext, data } from "@remix-run/cloudflare";

import { SetPasswordSchema } from "~/domain/auth-schemas";
import { parseForm } from "~/forms";
import { recordAudit } from "~/server/audit.server";
import { markEmailConfirmed, setPassword } from "~/server/auth/accounts.server";
import { endAllSessions } from "~/server/auth/end-sessions.server";
import { peekOneTimeLink, redeemOneTimeLink } from "~/server/auth/one-time-links.server";
import { readFormData } from "~/server/form-body.server";
import { redirectDocumentWithToast } from "~/server/toast.server";

type Purpose = "password_reset" | "invite";

export async function linkIsUsable(context: AppLoadContext, request: Request, purpose: Purpose) {
  const token = new URL(request.url).searchParams.get("token");
  return token ? (await peekOneTimeLink(context.db, token, purpose, new Date())) !== null : false;
}

export async function handleSetPassword(context: AppLoadContext, request: Request, purpose: Purpose) {
  const now = new Date();
  const submission = parseForm(await readFormData(request), SetPasswordSchema);
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }), linkInvalid: false }, { status: 400 });
  }
  const userId = await redeemOneTimeLink(context.db, submission.value.token, purpose, now);
  if (!userId)
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }), linkInvalid: true }, { status: 400 });
  await setPassword(context.db, userId, submission.value.password, now);
  await endAllSessions(context, userId);
  // Either link arrived by email: whoever used it owns the address.
  await markEmailConfirmed(context.db, userId, now);
  await recordAudit(context.db, request, {
    action: purpose === "invite" ? "auth.invite_accepted" : "auth.password_reset",
    actorId: userId,
    targetType: "user",
    targetId: userId,
  });
  return redirectDocumentWithToast(
    "/login",
    purpose === "invite"
      ? { kind: "success", title: "auth.invite.doneTitle", description: "auth.invite.doneBody" }
      : { kind: "success", title: "profile.passwordChangedTitle", description: "auth.reset.doneBody" },
    context.config,
  );
}
