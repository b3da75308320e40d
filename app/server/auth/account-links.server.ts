// Sending the one-time links of accounts: confirm an email, reset a password, accept an invite.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { EMAIL_CONFIRMATION_LINK_LIFETIME_MS, INVITE_LINK_LIFETIME_MS, PASSWORD_RESET_LINK_LIFETIME_MS } from "~/domain/constants";
import type { Language } from "~/domain/languages";
import { getTranslatorFor } from "~/i18n.server";
import { createOneTimeLink } from "~/server/auth/one-time-links.server";
import { confirmationEmail, inviteEmail, passwordResetEmail } from "~/server/mail/account-emails.server";
import { sendMail } from "~/server/mail/mailer.server";

interface Recipient {
  userId: string;
  email: string;
  firstName: string;
  language: Language;
}

const linkTo = (request: Request, path: string, token: string) => `${new URL(request.url).origin}${path}?token=${encodeURIComponent(token)}`;

export async function sendConfirmationLink(context: AppLoadContext, request: Request, to: Recipient, now: Date) {
  const token = await createOneTimeLink(context.db, to.userId, "email_confirmation", EMAIL_CONFIRMATION_LINK_LIFETIME_MS, now);
  const t = await getTranslatorFor(to.language);
  await sendMail(context.db, context.config, confirmationEmail(t, to.email, to.firstName, linkTo(request, "/auth/confirm", token)));
}

export async function sendPasswordResetLink(context: AppLoadContext, request: Request, to: Recipient, now: Date) {
  const token = await createOneTimeLink(context.db, to.userId, "password_reset", PASSWORD_RESET_LINK_LIFETIME_MS, now);
  const t = await getTranslatorFor(to.language);
  await sendMail(context.db, context.config, passwordResetEmail(t, to.email, to.firstName, linkTo(request, "/reset-password", token)));
}

/** For accounts an admin creates: a link to set their own password, valid 72 hours, once. */
export async function sendInviteLink(context: AppLoadContext, request: Request, to: Recipient, now: Date) {
  const token = await createOneTimeLink(context.db, to.userId, "invite", INVITE_LINK_LIFETIME_MS, now);
  const t = await getTranslatorFor(to.language);
  await sendMail(context.db, context.config, inviteEmail(t, to.email, to.firstName, linkTo(request, "/invite", token)));
}
