// The account emails, written in the reader's language with the link they need.
import type { TFunction } from "i18next";
import { EMAIL_CONFIRMATION_LINK_LIFETIME_MS, INVITE_LINK_LIFETIME_MS, PASSWORD_RESET_LINK_LIFETIME_MS } from "~/domain/constants";
import type { MailMessage } from "~/server/mail/mailer.server";

type Translate = TFunction<"common">;
const hours = (ms: number) => ms / (60 * 60_000);

function escapeHtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function withLink(to: string, subject: string, lines: string[], link: string, action: string): MailMessage {
  return {
    to,
    subject,
    text: [...lines, "", `${action}: ${link}`].join("\n"),
    html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
  };
}

export function confirmationEmail(t: Translate, to: string, firstName: string, link: string) {
  return withLink(
    to,
    t("email.confirm.subject"),
    [t("email.greeting", { name: firstName }), t("email.confirm.body", { hours: hours(EMAIL_CONFIRMATION_LINK_LIFETIME_MS) })],
    link,
    t("email.confirm.action"),
  );
}

export function passwordResetEmail(t: Translate, to: string, firstName: string, link: string) {
  return withLink(
    to,
    t("email.reset.subject"),
    [t("email.greeting", { name: firstName }), t("email.reset.body", { hours: hours(PASSWORD_RESET_LINK_LIFETIME_MS) }), t("email.reset.ignore")],
    link,
    t("email.reset.action"),
  );
}

export function inviteEmail(t: Translate, to: string, firstName: string, link: string) {
  return withLink(
    to,
    t("email.invite.subject"),
    [t("email.greeting", { name: firstName }), t("email.invite.body", { hours: hours(INVITE_LINK_LIFETIME_MS) })],
    link,
    t("email.invite.action"),
  );
}
