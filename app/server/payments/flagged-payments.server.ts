// Payments an admin must look at: one that came too late to start its consultation (kept, its money
// captured into escrow to be refunded) and one the provider's answer did not settle. Each mark is
// audited in its own batch, only by the call that made it, so a replayed webhook or the job's next run
// writes nothing twice.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";

import { type PaymentReviewReason, payments } from "~/db/schema";
import { auditIfChanged } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { lateMarkOf, type ProviderAnswer, reviewFlagOf } from "~/server/db/payments.server";
import { captureOfLatePayment } from "~/server/money/escrow.server";

/**
 * A verified payment that did not start the consultation (the window had closed, or another payment
 * already had): kept, flagged for an admin to refund. True only for the call that flagged it.
 */
export async function markPaymentLate(
  db: Database,
  capture: Parameters<typeof captureOfLatePayment>[2],
  providerReference: string | null,
  now: Date,
  /** Rows written with the mark (the patient's tidings), given the condition that this call made it. */
  alsoWrite: (flaggedByThisCall: SQL) => Array<BatchItem<"sqlite">> = () => [],
): Promise<boolean> {
  const { txRef } = capture;
  const flaggedByThisCall = sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.txRef} = ${txRef} AND ${payments.status} = 'paid_after_expiry' AND ${payments.updatedAt} = ${now.getTime()})`;
  const [flagged] = await db.batch([
    lateMarkOf(db, txRef, providerReference, now),
    // Audited in the same batch, and only by the call that flagged it (the row it just wrote).
    auditIfChanged(db, payments, and(eq(payments.txRef, txRef), eq(payments.status, "paid_after_expiry"), eq(payments.updatedAt, now)), {
      action: "payment.late",
      actorId: null,
      targetType: "consultation",
      targetId: payments.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('txRef', ${payments.txRef})`,
      now,
    }),
    // The money is ours to give back: captured into the consultation's escrow, to be refunded from there.
    ...captureOfLatePayment(db, flaggedByThisCall, capture, now),
    ...alsoWrite(flaggedByThisCall),
  ]);
  return flagged.length === 1;
}

/**
 * Flags an attempt not settled as paid for an admin, with why and what the provider said. Once: a
 * replayed webhook or the job's next run finds it flagged and changes nothing. Audited in the same
 * batch, only by the call that flagged it. True for that call.
 */
export async function flagPaymentForReview(
  db: Database,
  txRef: string,
  reason: PaymentReviewReason,
  answer: ProviderAnswer | null,
  now: Date,
): Promise<boolean> {
  const [flagged] = await db.batch([
    reviewFlagOf(db, txRef, reason, answer, now),
    auditIfChanged(db, payments, and(eq(payments.txRef, txRef), sql`changes() = 1`), {
      action: "payment.flagged",
      actorId: null,
      targetType: "consultation",
      targetId: payments.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('txRef', ${payments.txRef}, 'reason', ${payments.reviewReason})`,
      now,
    }),
  ]);
  return flagged.length === 1;
}
