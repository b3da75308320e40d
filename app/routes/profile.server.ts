// The profile page every role has (admin.profile.tsx, doctor.profile.tsx, patient.profile.tsx), its
// server half: edit name, phone and language; change the password.
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";

import { passwordCredentials, profiles } from "~/db/schema";
import { ChangePasswordSchema, ProfileSchema } from "~/domain/auth-schemas";
import { parseForm } from "~/forms";
import { languageCookie } from "~/i18n.server";
import { recordAudit } from "~/server/audit.server";
import { passwordMatches, setPassword } from "~/server/auth/accounts.server";
import { endOtherSessions } from "~/server/auth/end-sessions.server";
import { type SessionUser } from "~/server/auth/session.server";
import { readFormData } from "~/server/form-body.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loadProfile(context: AppLoadContext, user: SessionUser) {
  const profile = await context.db.query.profiles.findFirst({ where: eq(profiles.userId, user.userId) });
  const credential = await context.db.query.passwordCredentials.findFirst({
    columns: { userId: true },
    where: eq(passwordCredentials.userId, user.userId),
  });
  return {
    email: user.email,
    role: user.role,
    firstName: profile?.firstName ?? "",
    lastName: profile?.lastName ?? "",
    phone: profile?.phone ?? "",
    preferredLanguage: profile?.preferredLanguage ?? "en",
    hasPassword: credential !== undefined,
  };
}

export async function handleProfileAction(context: AppLoadContext, request: Request, user: SessionUser) {
  const formData = await readFormData(request);
  const path = new URL(request.url).pathname;
  const now = new Date();

  if (formData.get("intent") === "change-password") {
    const submission = parseForm(formData, ChangePasswordSchema);
    const hidden = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };
    if (submission.status !== "success") return data({ intent: "change-password", result: submission.reply(hidden) }, { status: 400 });
    const hasPassword = (await loadProfile(context, user)).hasPassword;
    const current = submission.value.currentPassword ?? "";
    if (hasPassword && !(await passwordMatches(context.db, user.userId, current))) {
      const key = current ? "profile.errors.currentPasswordWrong" : "forms.errors.required";
      return data(
        { intent: "change-password", result: submission.reply({ ...hidden, fieldErrors: { currentPassword: [key] } }) },
        { status: 400 },
      );
    }
    await setPassword(context.db, user.userId, submission.value.newPassword, now);
    // Anyone else holding a session of this account is signed out.
    await endOtherSessions(context, user.userId, user.sessionId);
    await recordAudit(context.db, request, {
      action: "auth.password_changed",
      actorId: user.userId,
      targetType: "user",
      targetId: user.userId,
    });
    return redirectWithToast(
      path,
      { kind: "success", title: "profile.passwordChangedTitle", description: "profile.passwordChangedBody" },
      context.config,
    );
  }

  const submission = parseForm(formData, ProfileSchema);
  if (submission.status !== "success") return data({ intent: "update-profile", result: submission.reply() }, { status: 400 });
  const { firstName, lastName, phone, preferredLanguage } = submission.value;
  await context.db
    .update(profiles)
    .set({ firstName, lastName, phone, preferredLanguage, updatedAt: now })
    .where(eq(profiles.userId, user.userId));
  return redirectWithToast(path, { kind: "success", title: "profile.savedTitle" }, context.config, {
    headers: { "Set-Cookie": await languageCookie.serialize(preferredLanguage) },
  });
}
