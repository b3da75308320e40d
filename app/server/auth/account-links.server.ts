// Account emails: the one-time links (confirm an email, reset a password, accept an invite) and the
// notices that carry no secret (someone signed up with your address; your password is being guessed).
import type { AppLoadContext } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";

import { profiles } from "~/db/schema";
import { EMAIL_CONFIRMATION_LINK_LIFETIME_MS, INVITE_LINK_LIFETIME_MS, PASSWORD_RESET_LINK_LIFETIME_MS } from "~/domain/constants";
import type { Language } from "~/domain/languages";
import { getTranslatorFor } from "~/i18n.server";
import { resendLimits } from "~/server/auth/client-limits.server";
import { createOneTimeLink, type LinkPurpose } from "~/server/auth/one-time-links.server";
import { accountEmail, type AccountEmailKind, type AccountNoticeKind, noticeEmail } from "~/server/mail/account-emails.server";
import { sendMail } from "~/server/mail/mailer.server";
import { takeAttempt } from "~/server/rate-limit.server";

interface Recipient {
  userId: string;
  email: string;
  firstName: string;
  language: Language;
}

const LINKS: Record<AccountEmailKind, { purpose: LinkPurpose; path: string; lifetimeMs: number }> = {
  confirm: { purpose: "email_confirmation", path: "/auth/confirm", lifetimeMs: EMAIL_CONFIRMATION_LINK_LIFETIME_MS },
  reset: { purpose: "password_reset", path: "/reset-password", lifetimeMs: PASSWORD_RESET_LINK_LIFETIME_MS },
  // For accounts an admin creates: a link to set their own password, valid 72 hours, once.
  invite: { purpose: "invite", path: "/invite", lifetimeMs: INVITE_LINK_LIFETIME_MS },
};

export async function sendAccountLink(kind: AccountEmailKind, context: AppLoadContext, request: Request, to: Recipient, now: Date) {
  const { purpose, path, lifetimeMs } = LINKS[kind];
  const token = await createOneTimeLink(context.db, to.userId, purpose, lifetimeMs, now);
  const link = `${new URL(request.url).origin}${path}?token=${encodeURIComponent(token)}`;
  const t = await getTranslatorFor(to.language);
  await sendMail(context.db, context.config, accountEmail(kind, t, to.email, to.firstName, link));
}

/** A notice about the account at `to.email`, with the ways in (sign in, reset the password). */
export async function sendAccountNotice(kind: AccountNoticeKind, context: AppLoadContext, request: Request, to: Omit<Recipient, "userId">) {
  const origin = new URL(request.url).origin;
  const t = await getTranslatorFor(to.language);
  await sendMail(
    context.db,
    context.config,
    noticeEmail(kind, t, to.email, to.firstName, { signIn: `${origin}/login`, reset: `${origin}/forgot-password` }),
  );
}

/** A new confirmation link for an account not confirmed yet, within the resend limits. */
export async function resendConfirmation(context: AppLoadContext, request: Request, userId: string, email: string) {
  const now = new Date();
  if (!(await takeAttempt(context.db, resendLimits(request, email), now)).allowed) return;
  const profile = await context.db.query.profiles.findFirst({ where: eq(profiles.userId, userId) });
  await sendAccountLink(
    "confirm",
    context,
    request,
    { userId, email, firstName: profile?.firstName ?? "", language: profile?.preferredLanguage ?? "en" },
    now,
  );
}
