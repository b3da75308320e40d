// What a consultation's people are told when it moves, in their notifications and by email in their
// language (accepted, declined, paid, paid too late, refunded, summary ready). Each builds tidings
// (docs/decisions/0047) that the change writes in its own batch, only if it took.
import { startAgainPath } from "~/domain/consultation-decisions";
import type { DeclineReason } from "~/domain/consultation-status";
import type { LateReason } from "~/domain/late-payments";
import { consultationLink } from "~/domain/notifications";
import type { Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import type { PaymentRow } from "~/server/db/payments.server";
import { profileName } from "~/server/db/profiles.server";
import { acceptedEmail, declinedEmail, latePaymentEmail, refundedEmail, summaryReadyEmail } from "~/server/mail/consultation-emails.server";
import { type Tidings, tidingsFor } from "~/server/tidings.server";

import type { ConsultationRow } from "./move.server";

type Consultation = Pick<ConsultationRow, "id" | "patientId" | "title">;

/** A doctor accepted: the patient is to pay by the deadline. */
export async function acceptedTidings(db: Database, consultation: Consultation, doctorId: string, deadline: Date, origin: string) {
  const paymentPath = `/patient/payment/${consultation.id}`;
  const doctor = await profileName(db, doctorId);
  const details = { doctorName: doctor?.firstName ?? "", title: consultation.title, deadline, paymentLink: `${origin}${paymentPath}` };
  return tidingsFor(
    db,
    consultation.patientId,
    { kind: "consultation_accepted", consultationId: consultation.id, link: paymentPath },
    (t, to) => acceptedEmail(t, to, details),
  );
}

/** A doctor declined, for a reason the patient is told (and how to start again). */
export function declinedTidings(
  db: Database,
  consultation: Consultation,
  decline: { reason: DeclineReason; note: string | null },
  origin: string,
) {
  const newRequestLink = `${origin}${startAgainPath(consultation.id, decline.reason)}`;
  // The page they watch says so live; a declined request needs no bell as well.
  return tidingsFor(db, consultation.patientId, null, (t, to) =>
    declinedEmail(t, to, { title: consultation.title, ...decline, newRequestLink }),
  );
}

/** Both participants find "payment received" in their notifications. */
export function paidTidings(consultation: Pick<ConsultationRow, "id" | "patientId" | "doctorId">): Tidings[] {
  const { id, patientId, doctorId } = consultation;
  const told = (userId: string, role: "patient" | "doctor"): Tidings => ({
    userId,
    notice: { kind: "payment_received", consultationId: id, link: consultationLink(role, id) },
    mail: null,
  });
  return [told(patientId, "patient"), ...(doctorId ? [told(doctorId, "doctor")] : [])];
}

/** The consultation has ended: the doctor's summary is there to read (and feedback to give). */
export async function summaryReadyTidings(db: Database, consultation: Consultation, doctorId: string, origin: string) {
  const link = consultationLink("patient", consultation.id);
  const doctor = await profileName(db, doctorId);
  const details = { doctorName: doctor?.firstName ?? "", title: consultation.title, consultationLink: `${origin}${link}` };
  return tidingsFor(db, consultation.patientId, { kind: "summary_ready", consultationId: consultation.id, link }, (t, to) =>
    summaryReadyEmail(t, to, details),
  );
}

/**
 * A payment that came after its window: kept, and the patient told it will be refunded, in the words of
 * each reason (whichever holds as the payment is marked late is the one written).
 */
export async function latePaymentTidings(
  db: Database,
  payment: Pick<PaymentRow, "patientId" | "consultationId" | "amountSantim">,
  origin: string,
): Promise<Record<LateReason, Tidings>> {
  const link = consultationLink("patient", payment.consultationId);
  const consultation = await findConsultationById(db, payment.consultationId);
  const details = { title: consultation?.title ?? "", amountSantim: payment.amountSantim, consultationLink: `${origin}${link}` };
  const told = (reason: LateReason) =>
    tidingsFor(
      db,
      payment.patientId,
      { kind: reason === "already_paid" ? "payment_duplicate" : "payment_late", consultationId: payment.consultationId, link },
      consultation ? (t, to) => latePaymentEmail(t, to, details, reason) : undefined,
    );
  const [windowClosed, alreadyPaid] = await Promise.all([told("window_closed"), told("already_paid")]);
  return { window_closed: windowClosed, already_paid: alreadyPaid };
}

/** An admin recorded that a payment which could not be used was sent back. */
export async function refundedTidings(
  db: Database,
  payment: Pick<PaymentRow, "patientId" | "consultationId" | "amountSantim">,
  origin: string,
) {
  const link = consultationLink("patient", payment.consultationId);
  const consultation = await findConsultationById(db, payment.consultationId);
  const details = { title: consultation?.title ?? "", amountSantim: payment.amountSantim, consultationLink: `${origin}${link}` };
  return tidingsFor(
    db,
    payment.patientId,
    { kind: "payment_refunded", consultationId: payment.consultationId, link },
    consultation ? (t, to) => refundedEmail(t, to, details) : undefined,
  );
}
