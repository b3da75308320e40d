// Payments: one row per attempt, each with its own tx_ref, recorded before the provider is called.
import { and, desc, eq, inArray } from "drizzle-orm";

import { payments } from "~/db/schema";
import type { Database } from "~/server/db/client.server";

export type PaymentRow = typeof payments.$inferSelect;

export async function recordPaymentAttempt(
  db: Database,
  attempt: { consultationId: string; patientId: string; txRef: string; provider: PaymentRow["provider"]; amountEtb: number; now: Date },
) {
  const { now, ...row } = attempt;
  // The same form sent twice records one attempt.
  await db
    .insert(payments)
    .values({ ...row, status: "initialized", createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: payments.txRef });
}

export async function paymentByTxRef(db: Database, txRef: string): Promise<PaymentRow | null> {
  return (await db.query.payments.findFirst({ where: eq(payments.txRef, txRef) })) ?? null;
}

export async function saveCheckoutUrl(db: Database, txRef: string, checkoutUrl: string, now: Date) {
  await db.update(payments).set({ checkoutUrl, updatedAt: now }).where(eq(payments.txRef, txRef));
}

/** An attempt the provider refused or the patient abandoned; a paid one is never marked failed. */
export async function markPaymentFailed(db: Database, txRef: string, now: Date) {
  await db
    .update(payments)
    .set({ status: "failed", updatedAt: now })
    .where(and(eq(payments.txRef, txRef), eq(payments.status, "initialized")));
}

/**
 * A verified payment that did not start the consultation (the window had closed, or another payment
 * already had): kept, flagged for an admin to refund. True only for the call that flagged it.
 */
export async function markPaymentLate(db: Database, txRef: string, providerReference: string | null, now: Date): Promise<boolean> {
  const flagged = await db
    .update(payments)
    .set({ status: "paid_after_expiry", needsAdminReview: true, paidAt: now, providerReference, updatedAt: now })
    .where(and(eq(payments.txRef, txRef), inArray(payments.status, ["initialized", "failed"])))
    .returning({ id: payments.id });
  return flagged.length === 1;
}

/** Payments of a consultation that arrived too late and await a refund, newest first. */
export async function latePaymentsOf(db: Database, consultationId: string) {
  return db
    .select({ txRef: payments.txRef, paidAt: payments.paidAt, amountEtb: payments.amountEtb })
    .from(payments)
    .where(and(eq(payments.consultationId, consultationId), eq(payments.status, "paid_after_expiry")))
    .orderBy(desc(payments.createdAt));
}
