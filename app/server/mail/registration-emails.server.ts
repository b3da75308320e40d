// What a doctor applicant is told by email when an admin rejects their application (an approval sends
// the account invite instead), in the language they applied in.
import type { TFunction } from "i18next";

import { htmlEmail } from "~/server/mail/html-email.server";
import type { MailMessage } from "~/server/mail/mailer.server";

export function registrationRejectedEmail(
  t: TFunction<"common">,
  to: { email: string; fullName: string },
  details: { reason: string | null; applyLink: string },
): MailMessage {
  const lines = [
    t("email.greeting", { name: to.fullName }),
    t("email.registrationRejected.body"),
    details.reason ? t("email.registrationRejected.reasonLine", { reason: details.reason }) : t("email.registrationRejected.noReason"),
    t("email.registrationRejected.again"),
  ];
  return htmlEmail(to.email, t("email.registrationRejected.subject"), lines, [
    { label: t("email.registrationRejected.action"), href: details.applyLink },
  ]);
}
