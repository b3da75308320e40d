// What a patient is told by email when a doctor decides on their request: accepted (pay within the
// window, with the link) or declined (why, and a way to start again); and, after it, the summary, late
// payments and refunds, and the day the doctor asked for new photos.
import type { TFunction } from "i18next";

import { PAYMENT_WINDOW_MINUTES } from "~/domain/constants";
import type { DeclineReason } from "~/domain/consultation-status";
import { formatTime } from "~/domain/dates";
import type { LateReason } from "~/domain/late-payments";
import { birrText, CONSULTATION_FEE_SANTIM } from "~/domain/money";
import { htmlEmail } from "~/server/mail/html-email.server";
import type { MailMessage } from "~/server/mail/mailer.server";

type Translate = TFunction<"common">;

export function acceptedEmail(
  t: Translate,
  to: { email: string; firstName: string },
  details: { doctorName: string; title: string; deadline: Date; paymentLink: string },
): MailMessage {
  const lines = [
    t("email.greeting", { name: to.firstName }),
    t("email.accepted.body", {
      doctor: details.doctorName,
      title: details.title,
      amount: birrText(CONSULTATION_FEE_SANTIM),
      minutes: PAYMENT_WINDOW_MINUTES,
      // The clock of the reader's phone, 24-hour: an Amharic 12-hour time would be read on the Ethiopian clock.
      deadline: formatTime(details.deadline),
    }),
    t("email.accepted.refund"),
  ];
  return htmlEmail(to.email, t("email.accepted.subject"), lines, [{ label: t("email.accepted.action"), href: details.paymentLink }]);
}

export function declinedEmail(
  t: Translate,
  to: { email: string; firstName: string },
  details: { title: string; reason: DeclineReason; note: string | null; newRequestLink: string },
): MailMessage {
  const lines = [
    t("email.greeting", { name: to.firstName }),
    t("email.declined.body", { title: details.title }),
    t("email.declined.reasonLine", { reason: t(`consultation.declineReasons.${details.reason}`) }),
    ...(details.note ? [t("email.declined.noteLine", { note: details.note })] : []),
  ];
  return htmlEmail(to.email, t("email.declined.subject"), lines, [{ label: t("email.declined.action"), href: details.newRequestLink }]);
}

export function latePaymentEmail(
  t: Translate,
  to: { email: string; firstName: string },
  details: { title: string; amountSantim: number; consultationLink: string },
  reason: LateReason,
): MailMessage {
  const values = { title: details.title, amount: birrText(details.amountSantim), minutes: PAYMENT_WINDOW_MINUTES };
  const lines = [
    t("email.greeting", { name: to.firstName }),
    reason === "already_paid" ? t("email.latePayment.duplicateBody", values) : t("email.latePayment.body", values),
  ];
  return htmlEmail(to.email, t("email.latePayment.subject"), lines, [
    { label: t("email.latePayment.action"), href: details.consultationLink },
  ]);
}

export function refundedEmail(
  t: Translate,
  to: { email: string; firstName: string },
  details: { title: string; amountSantim: number; consultationLink: string },
): MailMessage {
  const lines = [
    t("email.greeting", { name: to.firstName }),
    t("email.refunded.body", { title: details.title, amount: birrText(details.amountSantim) }),
  ];
  return htmlEmail(to.email, t("email.refunded.subject"), lines, [{ label: t("email.refunded.action"), href: details.consultationLink }]);
}

export function summaryReadyEmail(
  t: Translate,
  to: { email: string; firstName: string },
  details: { doctorName: string; title: string; consultationLink: string },
): MailMessage {
  const lines = [
    t("email.greeting", { name: to.firstName }),
    t("email.summaryReady.body", { doctor: details.doctorName, title: details.title }),
  ];
  return htmlEmail(to.email, t("email.summaryReady.subject"), lines, [
    { label: t("email.summaryReady.action"), href: details.consultationLink },
  ]);
}

/** The day the doctor asked for new photos: send them as a follow-up (or, their doctor gone, in a new consultation). */
export function newPhotosEmail(
  t: Translate,
  to: { email: string; firstName: string },
  details: { doctorName: string; title: string; link: string; followUpOpen: boolean },
): MailMessage {
  const values = { name: details.doctorName, title: details.title };
  const lines = [
    t("email.greeting", { name: to.firstName }),
    t("followUp.reminder.body", values),
    details.followUpOpen ? t("followUp.reminder.followUp", values) : t("followUp.reminder.newConsultation", values),
  ];
  const action = details.followUpOpen ? t("followUp.reminder.action", values) : t("followUp.reminder.actionNew");
  return htmlEmail(to.email, t("followUp.reminder.subject"), lines, [{ label: action, href: details.link }]);
}
