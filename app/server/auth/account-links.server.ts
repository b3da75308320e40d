// Account emails: the one-time links (confirm an email, reset a password, accept an invite) and the
// notices that carry no secret (someone signed up with your address; your password is being guessed).
// Each is written in the account owner's language, to the account's own address.
import type { AppLoadContext } from "@remix-run/cloudflare";

import {
  EMAIL_CONFIRMATION_LINK_LIFETIME_MS,
  INVITE_LINK_LIFETIME_MS,
  PASSWORD_RESET_LINK_LIFETIME_MS,
  SIGN_IN_LINK_LIFETIME_MS,
} from "~/domain/constants";
import { getTranslatorFor } from "~/i18n.server";
import { findUserByEmail } from "~/server/auth/accounts.server";
import { resendLimits } from "~/server/auth/client-limits.server";
import { type LinkPurpose, oneTimeLinkStatement } from "~/server/auth/one-time-links.server";
import { contactOf } from "~/server/db/profiles.server";
import { accountEmail, type AccountEmailKind, type AccountNoticeKind, noticeEmail } from "~/server/mail/account-emails.server";
import { deliverDueMail, queuedMail, sendMail } from "~/server/mail/mailer.server";
import { takeAttempt } from "~/server/rate-limit.server";

const LINKS: Record<AccountEmailKind, { purpose: LinkPurpose; path: string; lifetimeMs: number }> = {
  confirm: { purpose: "email_confirmation", path: "/auth/confirm", lifetimeMs: EMAIL_CONFIRMATION_LINK_LIFETIME_MS },
  reset: { purpose: "password_reset", path: "/reset-password", lifetimeMs: PASSWORD_RESET_LINK_LIFETIME_MS },
  // For accounts an admin creates: a link to set their own password, valid 72 hours, once.
  invite: { purpose: "invite", path: "/invite", lifetimeMs: INVITE_LINK_LIFETIME_MS },
  applicationApproved: { purpose: "invite", path: "/invite", lifetimeMs: INVITE_LINK_LIFETIME_MS },
  // For someone whose password attempts must wait (guessing from their network): a way in by email.
  signIn: { purpose: "sign_in", path: "/sign-in-link", lifetimeMs: SIGN_IN_LINK_LIFETIME_MS },
};

/** Sends `userId` the one-time link of `kind`; false when there is no such account. */
export async function sendAccountLink(kind: AccountEmailKind, context: AppLoadContext, request: Request, userId: string, now: Date) {
  const to = await contactOf(context.db, userId);
  if (!to) return false;
  const { purpose, path, lifetimeMs } = LINKS[kind];
  const { token, statement } = await oneTimeLinkStatement(context.db, userId, purpose, lifetimeMs, now);
  const link = `${new URL(request.url).origin}${path}?token=${encodeURIComponent(token)}`;
  const t = await getTranslatorFor(to.language);
  // The link and the mail that carries it are kept together or not at all.
  const mail = queuedMail(context.db, accountEmail(kind, t, to.email, to.firstName, link), now);
  await context.db.batch([statement, mail.statement]);
  await deliverDueMail(context.db, context.config, now, { ids: [mail.id] });
  return true;
}

/**
 * Sends the link of `kind` to the account at `email`, if there is one (and, for a confirmation, if
 * it is not confirmed yet). Returns the account's id when a link went out.
 */
export async function sendAccountLinkTo(
  kind: "confirm" | "reset" | "signIn",
  context: AppLoadContext,
  request: Request,
  email: string,
  now: Date,
) {
  const user = await findUserByEmail(context.db, email);
  if (!user || (kind === "confirm" && user.emailConfirmedAt)) return null;
  return (await sendAccountLink(kind, context, request, user.id, now)) ? user.id : null;
}

/** A notice to `userId` about their account, with the ways in (sign in, reset the password). */
export async function sendAccountNotice(kind: AccountNoticeKind, context: AppLoadContext, request: Request, userId: string) {
  const to = await contactOf(context.db, userId);
  if (!to) return;
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
  await sendAccountLink("confirm", context, request, userId, now);
}
