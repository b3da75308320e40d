// A patient who is not looking at the page still hears what happened: in their notifications and by
// email, in their language (accepted, declined, paid too late, refunded, summary ready).
import { startAgainPath } from "~/domain/consultation-request";
import type { LateReason } from "~/domain/late-payments";
import { consultationLink } from "~/domain/notifications";
import { getTranslatorFor } from "~/i18n.server";
import type { Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { notify } from "~/server/db/notifications.server";
import type { PaymentRow } from "~/server/db/payments.server";
import { contactOf, profileName } from "~/server/db/profiles.server";
import type { AppConfig } from "~/server/env.server";
import { acceptedEmail, declinedEmail, latePaymentEmail, refundedEmail, summaryReadyEmail } from "~/server/mail/consultation-emails.server";
import { sendMail } from "~/server/mail/mailer.server";

import type { ConsultationRow } from "./move.server";

interface Mailing {
  db: Database;
  config: AppConfig;
  /** The site's own address, for the links in the mail. */
  origin: string;
}

export async function mailAccepted({ db, config, origin }: Mailing, consultation: ConsultationRow) {
  await notify(db, consultation.patientId, "consultation_accepted", consultation.id, `/patient/payment/${consultation.id}`);
  const patient = await contactOf(db, consultation.patientId);
  if (!patient || !consultation.paymentDeadlineAt) return;
  const doctor = await profileName(db, consultation.doctorId);
  const t = await getTranslatorFor(patient.language);
  const details = {
    doctorName: doctor?.firstName ?? "",
    title: consultation.title,
    deadline: consultation.paymentDeadlineAt,
    paymentLink: `${origin}/patient/payment/${consultation.id}`,
  };
  await sendMail(db, config, acceptedEmail(t, patient, details));
}

export async function mailDeclined({ db, config, origin }: Mailing, consultation: ConsultationRow) {
  const patient = await contactOf(db, consultation.patientId);
  if (!patient || !consultation.declineReason) return;
  const t = await getTranslatorFor(patient.language);
  const newRequestLink = `${origin}${startAgainPath(consultation.id, consultation.declineReason)}`;
  await sendMail(
    db,
    config,
    declinedEmail(t, patient, {
      title: consultation.title,
      reason: consultation.declineReason,
      note: consultation.declineNote,
      newRequestLink,
    }),
  );
}

/** A payment that came after its window: kept, and the patient told it will be refunded. */
export async function mailLatePayment({ db, config, origin }: Mailing, payment: PaymentRow, reason: LateReason) {
  const kind = reason === "already_paid" ? "payment_duplicate" : "payment_late";
  await notify(db, payment.patientId, kind, payment.consultationId, consultationLink("patient", payment.consultationId));
  const [patient, consultation] = await Promise.all([contactOf(db, payment.patientId), findConsultationById(db, payment.consultationId)]);
  if (!patient || !consultation) return;
  const t = await getTranslatorFor(patient.language);
  const details = {
    title: consultation.title,
    amountEtb: payment.amountEtb,
    consultationLink: `${origin}/patient/consultation/${consultation.id}`,
  };
  await sendMail(db, config, latePaymentEmail(t, patient, details, reason));
}

/** An admin recorded that a payment which could not be used was sent back. */
export async function tellRefunded(
  { db, config, origin }: Mailing,
  payment: Pick<PaymentRow, "patientId" | "consultationId" | "amountEtb">,
) {
  const link = consultationLink("patient", payment.consultationId);
  await notify(db, payment.patientId, "payment_refunded", payment.consultationId, link);
  const [patient, consultation] = await Promise.all([contactOf(db, payment.patientId), findConsultationById(db, payment.consultationId)]);
  if (!patient || !consultation) return;
  const t = await getTranslatorFor(patient.language);
  await sendMail(
    db,
    config,
    refundedEmail(t, patient, { title: consultation.title, amountEtb: payment.amountEtb, consultationLink: `${origin}${link}` }),
  );
}

/** The consultation has ended: the doctor's summary is there to read (and feedback to give). */
export async function tellSummaryReady({ db, config, origin }: Mailing, consultation: ConsultationRow) {
  const link = consultationLink("patient", consultation.id);
  await notify(db, consultation.patientId, "summary_ready", consultation.id, link);
  const patient = await contactOf(db, consultation.patientId);
  if (!patient) return;
  const doctor = await profileName(db, consultation.doctorId);
  const t = await getTranslatorFor(patient.language);
  const details = { doctorName: doctor?.firstName ?? "", title: consultation.title, consultationLink: `${origin}${link}` };
  await sendMail(db, config, summaryReadyEmail(t, patient, details));
}
