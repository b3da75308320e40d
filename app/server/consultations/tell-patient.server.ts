// A patient who is not looking at the page still hears what happened: in their notifications and by
// email, in their language (accepted, declined, paid too late, refunded, summary ready). What a move
// causes is written in the move's own batch (tidingsOfMove); the email is delivered after the answer.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { sql } from "drizzle-orm";

import { consultations, notifications } from "~/db/schema";
import { startAgainPath } from "~/domain/consultation-decisions";
import type { DeclineReason } from "~/domain/consultation-status";
import type { LateReason } from "~/domain/late-payments";
import { consultationLink, type NotificationKind } from "~/domain/notifications";
import { getTranslatorFor } from "~/i18n.server";
import { afterResponse } from "~/server/after-response.server";
import type { Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { insertWhere } from "~/server/db/insert-where.server";
import { notificationRow, notify } from "~/server/db/notifications.server";
import type { PaymentRow } from "~/server/db/payments.server";
import { contactOf, profileName } from "~/server/db/profiles.server";
import type { AppConfig } from "~/server/env.server";
import { acceptedEmail, declinedEmail, latePaymentEmail, refundedEmail, summaryReadyEmail } from "~/server/mail/consultation-emails.server";
import { deliverDueMail, type MailMessage, queuedMail, sendMail } from "~/server/mail/mailer.server";
import { deliverTelegramAfterResponse } from "~/server/telegram/outbox.server";
import { queuedTelegram } from "~/server/telegram/queue.server";

import type { ConsultationRow, MovedByThisCall } from "./move.server";

interface Mailing {
  db: Database;
  config: AppConfig;
  /** The site's own address, for the links in the mail. */
  origin: string;
}

/** What a move tells its patient: a notification, and an email when they have an address. */
interface Tidings {
  patientId: string;
  consultationId: string;
  notification: { kind: NotificationKind; link: string } | null;
  mail: MailMessage | null;
}

/**
 * The patient's notification and email as statements of the move's batch, written only by the call
 * that made the move: a crash loses the move and its news together or neither. Returns the email's
 * outbox id (to deliver once the answer is out) with the statements.
 */
export function tidingsOfMove(db: Database, moved: MovedByThisCall, tidings: Tidings, now: Date) {
  const onlyIfMoved = sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${moved})`;
  const { patientId, consultationId, notification, mail } = tidings;
  const queued = mail ? queuedMail(db, mail, now, onlyIfMoved) : null;
  const telegram = notification
    ? queuedTelegram(db, { userId: patientId, kind: notification.kind, consultationId, link: notification.link }, now, onlyIfMoved)
    : null;
  return {
    mailId: queued?.id ?? null,
    statements: [
      ...(notification
        ? [
            insertWhere(
              db,
              notifications,
              notificationRow(patientId, notification.kind, consultationId, notification.link, now),
              onlyIfMoved,
            ),
          ]
        : []),
      ...(queued ? [queued.statement] : []),
      ...(telegram ? [telegram] : []),
    ],
  };
}

/** Delivers the email and Telegram message a move queued, after the answer; the scheduled job retries what fails. */
export function deliverAfterResponse(context: AppLoadContext, mailId: string | null, patientId?: string) {
  if (mailId) afterResponse(context, "mail", () => deliverDueMail(context.db, context.config, new Date(), { ids: [mailId] }));
  if (patientId) deliverTelegramAfterResponse(context, [patientId]);
}

/** A doctor accepted: the patient is to pay by the deadline. */
export async function acceptedTidings(
  db: Database,
  consultation: Pick<ConsultationRow, "id" | "patientId" | "title">,
  doctorId: string,
  deadline: Date,
  origin: string,
): Promise<Tidings> {
  const paymentPath = `/patient/payment/${consultation.id}`;
  const [patient, doctor] = await Promise.all([contactOf(db, consultation.patientId), profileName(db, doctorId)]);
  const t = patient ? await getTranslatorFor(patient.language) : null;
  const details = { doctorName: doctor?.firstName ?? "", title: consultation.title, deadline, paymentLink: `${origin}${paymentPath}` };
  return {
    patientId: consultation.patientId,
    consultationId: consultation.id,
    notification: { kind: "consultation_accepted", link: paymentPath },
    mail: patient && t ? acceptedEmail(t, patient, details) : null,
  };
}

/** A doctor declined, for a reason the patient is told (and how to start again). */
export async function declinedTidings(
  db: Database,
  consultation: Pick<ConsultationRow, "id" | "patientId" | "title">,
  decline: { reason: DeclineReason; note: string | null },
  origin: string,
): Promise<Tidings> {
  const patient = await contactOf(db, consultation.patientId);
  const t = patient ? await getTranslatorFor(patient.language) : null;
  const newRequestLink = `${origin}${startAgainPath(consultation.id, decline.reason)}`;
  return {
    patientId: consultation.patientId,
    consultationId: consultation.id,
    // The page they watch says so live; a declined request needs no bell as well.
    notification: null,
    mail: patient && t ? declinedEmail(t, patient, { title: consultation.title, ...decline, newRequestLink }) : null,
  };
}

/** The consultation has ended: the doctor's summary is there to read (and feedback to give). */
export async function summaryReadyTidings(
  db: Database,
  consultation: Pick<ConsultationRow, "id" | "patientId" | "title">,
  doctorId: string,
  origin: string,
): Promise<Tidings> {
  const link = consultationLink("patient", consultation.id);
  const [patient, doctor] = await Promise.all([contactOf(db, consultation.patientId), profileName(db, doctorId)]);
  const t = patient ? await getTranslatorFor(patient.language) : null;
  const details = { doctorName: doctor?.firstName ?? "", title: consultation.title, consultationLink: `${origin}${link}` };
  return {
    patientId: consultation.patientId,
    consultationId: consultation.id,
    notification: { kind: "summary_ready", link },
    mail: patient && t ? summaryReadyEmail(t, patient, details) : null,
  };
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
    amountSantim: payment.amountSantim,
    consultationLink: `${origin}/patient/consultation/${consultation.id}`,
  };
  await sendMail(db, config, latePaymentEmail(t, patient, details, reason));
}

/** An admin recorded that a payment which could not be used was sent back. */
export async function tellRefunded(
  { db, config, origin }: Mailing,
  payment: Pick<PaymentRow, "patientId" | "consultationId" | "amountSantim">,
) {
  const link = consultationLink("patient", payment.consultationId);
  await notify(db, payment.patientId, "payment_refunded", payment.consultationId, link);
  const [patient, consultation] = await Promise.all([contactOf(db, payment.patientId), findConsultationById(db, payment.consultationId)]);
  if (!patient || !consultation) return;
  const t = await getTranslatorFor(patient.language);
  await sendMail(
    db,
    config,
    refundedEmail(t, patient, { title: consultation.title, amountSantim: payment.amountSantim, consultationLink: `${origin}${link}` }),
  );
}
