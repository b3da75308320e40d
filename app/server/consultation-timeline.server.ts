// A consultation's timeline for its patient, read from where each step is already stored (one truth,
// no events of its own): the consultation's times, the payment that started it, its escrow (the patient's
// confirmation), its dispute, the ledger's entries that released or refunded its money, and the rating.
// Ordered by the domain (app/domain/consultation-timeline.ts), worded here in the reader's language.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { TFunction } from "i18next";

import { disputes, escrows, ledgerEntries, ledgerLines, patientFeedback, payments } from "~/db/schema";
import {
  consultationTimeline,
  consultationToFollow,
  type TimelineFacts,
  timelineGoesOn,
  type TimelineStep,
} from "~/domain/consultation-timeline";
import { formatMoment } from "~/domain/dates";
import { birrText } from "~/domain/money";
import type { WordedTimeline } from "~/domain/views/worded-timeline";
import type enServer from "~/locales/en/server.json";
import type { ConsultationRow } from "~/server/consultations/move.server";
import type { Database } from "~/server/db/client.server";
import { findOwnConsultation } from "~/server/db/consultations.server";
import { profileName } from "~/server/db/profiles.server";

type Consultation = Pick<
  ConsultationRow,
  "id" | "status" | "doctorId" | "createdAt" | "acceptedAt" | "startedAt" | "completedAt" | "cancelledAt" | "declineReason"
>;

/** What the wording needs besides the steps: who the doctor is, the refund's amount, the rating. */
interface TimelineDetails {
  doctorFirstName: string;
  refundSantim: number | null;
  rating: number | null;
}

/**
 * The ledger's entries that moved this consultation's escrow out (released to the doctor, a refund
 * asked of the provider) or settled a refund, oldest first; the refund's amount from the line that
 * carried it in transit. A late payment's refund (not this consultation's fee) is left out by its payment.
 */
function moneyEntries(db: Database, consultationId: string) {
  return db
    .select({
      kind: ledgerEntries.kind,
      paymentId: ledgerEntries.paymentId,
      createdAt: ledgerEntries.createdAt,
      inTransitSantim: ledgerLines.amountSantim,
    })
    .from(ledgerEntries)
    .leftJoin(ledgerLines, and(eq(ledgerLines.entryId, ledgerEntries.id), eq(ledgerLines.account, "refunds_in_transit")))
    .where(
      and(
        eq(ledgerEntries.consultationId, consultationId),
        inArray(ledgerEntries.kind, ["escrow_released", "refund_started", "refund_settled"]),
      ),
    )
    .orderBy(asc(ledgerEntries.createdAt));
}

async function timelineFactsOf(db: Database, consultation: Consultation): Promise<{ facts: TimelineFacts; details: TimelineDetails }> {
  const id = consultation.id;
  const [payment, escrow, dispute, entries, feedback, doctor] = await Promise.all([
    // The payment that started it (a late or second one is "paid_after_expiry", never "paid").
    db.query.payments.findFirst({
      columns: { id: true, paidAt: true },
      where: and(eq(payments.consultationId, id), eq(payments.status, "paid")),
      orderBy: asc(payments.paidAt),
    }),
    db.query.escrows.findFirst({ columns: { confirmedAt: true }, where: eq(escrows.consultationId, id) }),
    db.query.disputes.findFirst({ columns: { createdAt: true }, where: eq(disputes.consultationId, id) }),
    moneyEntries(db, id),
    db.query.patientFeedback.findFirst({ columns: { rating: true, createdAt: true }, where: eq(patientFeedback.consultationId, id) }),
    profileName(db, consultation.doctorId),
  ]);
  const ofItsFee = entries.filter((entry) => entry.kind === "escrow_released" || (payment && entry.paymentId === payment.id));
  const released = ofItsFee.find((entry) => entry.kind === "escrow_released");
  // The latest refund asked (one that failed is asked again), and whether the provider has settled it since.
  const refundStarted = ofItsFee.findLast((entry) => entry.kind === "refund_started");
  const refundSettled = ofItsFee.findLast(
    (entry) => entry.kind === "refund_settled" && refundStarted && entry.createdAt >= refundStarted.createdAt,
  );
  return {
    facts: {
      status: consultation.status,
      submittedAt: consultation.createdAt,
      acceptedAt: consultation.acceptedAt,
      paidAt: payment?.paidAt ?? null,
      startedAt: consultation.startedAt,
      completedAt: consultation.completedAt,
      cancelledAt: consultation.cancelledAt,
      declined: consultation.declineReason !== null,
      confirmedAt: escrow?.confirmedAt ?? null,
      disputedAt: dispute?.createdAt ?? null,
      releasedAt: released?.createdAt ?? null,
      refund: refundStarted ? { startedAt: refundStarted.createdAt, settledAt: refundSettled?.createdAt ?? null } : null,
      ratedAt: feedback?.createdAt ?? null,
    },
    details: {
      doctorFirstName: doctor?.firstName ?? "",
      refundSantim: refundStarted?.inTransitSantim ? Math.abs(refundStarted.inTransitSantim) : null,
      rating: feedback?.rating ?? null,
    },
  };
}

type Wording = typeof enServer.timeline;

/** A step's words: what happened, or what is to come. */
function labelOf(t: TFunction, step: TimelineStep, details: TimelineDetails): string {
  const values = {
    name: details.doctorFirstName,
    amount: birrText(details.refundSantim ?? 0),
    rating: details.rating ?? 0,
  };
  return step.state === "next"
    ? t(`timeline.next.${step.kind as keyof Wording["next"]}`, values)
    : t(`timeline.done.${step.kind as keyof Wording["done"]}`, values);
}

/** The patient's timeline of their consultation, in their language: each step's words and time (Addis Ababa's, 24-hour). */
export async function patientTimeline(db: Database, t: TFunction, language: string, consultation: Consultation): Promise<WordedTimeline> {
  const { facts, details } = await timelineFactsOf(db, consultation);
  const steps = consultationTimeline(facts);
  return {
    consultationId: consultation.id,
    status: consultation.status,
    goesOn: timelineGoesOn(steps),
    toCome: t("timeline.toCome"),
    steps: steps.map((step) => ({
      label: labelOf(t, step, details),
      state: step.state,
      time: step.at ? formatMoment(step.at, language) : null,
      dateTime: step.at?.toISOString() ?? null,
    })),
  };
}

/**
 * What the patient's dashboard follows (`newestFirst`: their consultations, drafts left out): the
 * consultation under way, else the one waiting for a doctor, else the newest; with its timeline. Null
 * when they have none.
 */
export async function followedTimeline(
  db: Database,
  t: TFunction,
  language: string,
  patientId: string,
  newestFirst: Array<{ id: string; status: ConsultationRow["status"] }>,
) {
  const followed = consultationToFollow(newestFirst);
  const consultation = followed ? await findOwnConsultation(db, followed.id, patientId) : undefined;
  if (!consultation) return null;
  return { id: consultation.id, title: consultation.title, timeline: await patientTimeline(db, t, language, consultation) };
}
