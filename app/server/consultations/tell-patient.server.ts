// A patient who is not looking at the page still hears what a doctor decided: by email, in their language.
import { startAgainPath } from "~/domain/consultation-request";
import { getTranslatorFor } from "~/i18n.server";
import type { Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import type { PaymentRow } from "~/server/db/payments.server";
import { contactOf, profileName } from "~/server/db/profiles.server";
import type { AppConfig } from "~/server/env.server";
import { acceptedEmail, declinedEmail, latePaymentEmail } from "~/server/mail/consultation-emails.server";
import { sendMail } from "~/server/mail/mailer.server";

import type { ConsultationRow } from "./move.server";

interface Mailing {
  db: Database;
  config: AppConfig;
  /** The site's own address, for the links in the mail. */
  origin: string;
}

export async function mailAccepted({ db, config, origin }: Mailing, consultation: ConsultationRow) {
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
export async function mailLatePayment({ db, config, origin }: Mailing, payment: PaymentRow) {
  const [patient, consultation] = await Promise.all([contactOf(db, payment.patientId), findConsultationById(db, payment.consultationId)]);
  if (!patient || !consultation) return;
  const t = await getTranslatorFor(patient.language);
  const details = {
    title: consultation.title,
    amountEtb: payment.amountEtb,
    consultationLink: `${origin}/patient/consultation/${consultation.id}`,
  };
  await sendMail(db, config, latePaymentEmail(t, patient, details));
}
