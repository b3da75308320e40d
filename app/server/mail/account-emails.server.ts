// The account emails, written in the reader's language with the link they need.
import type { TFunction } from "i18next";

import {
  EMAIL_CONFIRMATION_LINK_LIFETIME_MS,
  INVITE_LINK_LIFETIME_MS,
  PASSWORD_RESET_LINK_LIFETIME_MS,
  SIGN_IN_LINK_LIFETIME_MS,
} from "~/domain/constants";
import { htmlEmail } from "~/server/mail/html-email.server";
import type { MailMessage } from "~/server/mail/mailer.server";

type Translate = TFunction<"common">;
/** `applicationApproved` is the invite of a doctor whose application was approved. */
export type AccountEmailKind = "confirm" | "reset" | "invite" | "applicationApproved" | "signIn";
export type AccountNoticeKind = "signUpTaken" | "signInGuessing";

const LINK_LIFETIME_MS: Record<AccountEmailKind, number> = {
  confirm: EMAIL_CONFIRMATION_LINK_LIFETIME_MS,
  reset: PASSWORD_RESET_LINK_LIFETIME_MS,
  invite: INVITE_LINK_LIFETIME_MS,
  applicationApproved: INVITE_LINK_LIFETIME_MS,
  signIn: SIGN_IN_LINK_LIFETIME_MS,
};

export function accountEmail(kind: AccountEmailKind, t: Translate, to: string, firstName: string, link: string): MailMessage {
  const minutes = LINK_LIFETIME_MS[kind] / 60_000;
  const lines = [t("email.greeting", { name: firstName }), t(`email.${kind}.body`, { hours: minutes / 60, minutes })];
  if (kind === "reset" || kind === "signIn") lines.push(t(`email.${kind}.ignore`));
  return htmlEmail(to, t(`email.${kind}.subject`), lines, [{ label: t(`email.${kind}.action`), href: link }]);
}

/** A notice that carries no secret: what happened, and the ways to sign in or reset the password. */
export function noticeEmail(
  kind: AccountNoticeKind,
  t: Translate,
  to: string,
  firstName: string,
  links: { signIn: string; reset: string },
): MailMessage {
  const lines = [t("email.greeting", { name: firstName }), t(`email.${kind}.body`), t(`email.${kind}.advice`)];
  const actions = [
    { label: t("email.notice.signIn"), href: links.signIn },
    { label: t("email.notice.reset"), href: links.reset },
  ];
  return htmlEmail(to, t(`email.${kind}.subject`), lines, actions);
}
