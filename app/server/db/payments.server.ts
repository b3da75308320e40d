// Payments: one row per attempt, each with its own tx_ref, recorded before the provider is called.
import { and, desc, eq, gte, inArray, isNotNull, isNull, lte, max, type SQL, sql } from "drizzle-orm";

import { consultations, type PaymentReviewReason, payments, refunds } from "~/db/schema";
import { isUuid } from "~/domain/ids";
import { lateReason } from "~/domain/late-payments";
import { PAYMENT_MOVES } from "~/domain/payment-attempts";
import { assertMove } from "~/domain/status-moves";
import type { Database } from "~/server/db/client.server";

export type PaymentRow = typeof payments.$inferSelect;
type PaymentStatus = PaymentRow["status"];

/**
 * The one way a payment attempt's status changes (docs/decisions/0046): the conditional UPDATE of the
 * attempt `where` selects while it is still in a `from` status, to `to`, checked against PAYMENT_MOVES
 * before it is built.
 */
function paymentMove(
  db: Database,
  move: {
    from: ReadonlyArray<PaymentStatus>;
    to: PaymentStatus;
    where: SQL | undefined;
    set: Omit<Partial<PaymentRow>, "id" | "status" | "updatedAt">;
    now: Date;
  },
) {
  assertMove("payments", PAYMENT_MOVES, move.from, move.to);
  return db
    .update(payments)
    .set({ ...move.set, status: move.to, updatedAt: move.now })
    .where(and(inArray(payments.status, [...move.from]), move.where));
}

/** The payment that started its consultation marked paid, only by the call that moved the consultation (as `moved` selects it). */
export function paidOfMove(db: Database, moved: SQL | undefined, paymentId: string, providerReference: string | null, now: Date) {
  return paymentMove(db, {
    from: ["initialized", "failed"],
    to: "paid",
    where: and(eq(payments.id, paymentId), sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${moved})`),
    set: { paidAt: now, providerReference },
    now,
  });
}

export async function recordPaymentAttempt(
  db: Database,
  attempt: { consultationId: string; patientId: string; txRef: string; provider: PaymentRow["provider"]; amountSantim: number; now: Date },
) {
  const { now, ...row } = attempt;
  // The same form sent twice records one attempt.
  await db
    .insert(payments)
    .values({ ...row, status: "initialized", createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: payments.txRef });
}

/**
 * A payment the patient made that the provider confirmed (it started its consultation, or came too late
 * and is refunded), with its consultation; null for anyone else's, an attempt never paid, or no such id.
 */
export async function paidPaymentOfPatient(db: Database, patientId: string, paymentId: string) {
  if (!isUuid(paymentId)) return null;
  const [row] = await db
    .select({ payment: payments, consultation: consultations })
    .from(payments)
    .innerJoin(consultations, eq(consultations.id, payments.consultationId))
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.patientId, patientId),
        eq(consultations.patientId, patientId),
        inArray(payments.status, ["paid", "paid_after_expiry"]),
      ),
    );
  return row ?? null;
}

export async function paymentByTxRef(db: Database, txRef: string): Promise<PaymentRow | null> {
  return (await db.query.payments.findFirst({ where: eq(payments.txRef, txRef) })) ?? null;
}

/**
 * The newest attempt of `consultationId` still open at the provider (initialized, its checkout known)
 * and begun since the current acceptance: a second tab's Pay goes to it, so only one can be paid.
 */
export async function openAttemptSince(db: Database, consultationId: string, provider: PaymentRow["provider"], since: Date) {
  const [open] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.consultationId, consultationId),
        eq(payments.provider, provider),
        eq(payments.status, "initialized"),
        isNotNull(payments.checkoutUrl),
        gte(payments.createdAt, since),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return open ?? null;
}

export async function saveCheckoutUrl(db: Database, txRef: string, checkoutUrl: string, now: Date) {
  await db.update(payments).set({ checkoutUrl, updatedAt: now }).where(eq(payments.txRef, txRef));
}

/** An attempt the provider refused or the patient abandoned; a paid one is never marked failed. */
export async function markPaymentFailed(db: Database, txRef: string, now: Date) {
  await paymentMove(db, { from: ["initialized"], to: "failed", where: eq(payments.txRef, txRef), set: {}, now });
}

/** An open attempt the job has just asked the provider about: the next run asks the others first. */
export async function markPaymentAsked(db: Database, txRef: string, now: Date) {
  await db
    .update(payments)
    .set({ updatedAt: now })
    .where(and(eq(payments.txRef, txRef), eq(payments.status, "initialized")));
}

/**
 * A late payment an admin gave back outside the provider, marked with who and when, if `onlyIf` holds
 * (its money still ours to give back, no refund under way): the statement for their batch.
 */
export function refundedOutsideOf(db: Database, paymentId: string, adminId: string, onlyIf: SQL | undefined, now: Date) {
  return db
    .update(payments)
    .set({ refundedAt: now, refundedBy: adminId, updatedAt: now })
    .where(and(eq(payments.id, paymentId), onlyIf));
}

/**
 * A verified payment that did not start the consultation (the window had closed, or another payment
 * already had) marked kept and flagged for an admin to refund: the statement for its batch, which
 * returns the row only to the call that marked it.
 */
export function lateMarkOf(db: Database, txRef: string, providerReference: string | null, now: Date) {
  return paymentMove(db, {
    from: ["initialized", "failed"],
    to: "paid_after_expiry",
    where: eq(payments.txRef, txRef),
    set: { needsAdminReview: true, paidAt: now, providerReference },
    now,
  }).returning({ id: payments.id });
}

/**
 * Holds, as a batch runs, when a payment of `consultationId` was received by `at`: a payment that is
 * late then is a second one, not one after its window (lateReason's "already_paid").
 */
export function paidBy(consultationId: string, at: Date): SQL {
  return sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${and(
    eq(payments.consultationId, consultationId),
    eq(payments.status, "paid"),
    lte(payments.paidAt, at),
  )})`;
}

/** What the provider's verify said, kept with a flagged payment for the admin who looks at it. */
export interface ProviderAnswer {
  status: string;
  amount: number | null;
  currency: string;
  txRef: string;
}

/**
 * An attempt not settled as paid flagged for an admin, with why and what the provider said, once (one
 * already flagged is left as it is): the statement for its batch, which returns the row only to the
 * call that flagged it.
 */
export function reviewFlagOf(db: Database, txRef: string, reason: PaymentReviewReason, answer: ProviderAnswer | null, now: Date) {
  return db
    .update(payments)
    .set({ needsAdminReview: true, reviewReason: reason, providerAnswer: answer ? JSON.stringify(answer) : null, updatedAt: now })
    .where(and(eq(payments.txRef, txRef), inArray(payments.status, ["initialized", "failed"]), isNull(payments.reviewReason)))
    .returning({ id: payments.id });
}

/** Payments of a consultation that arrived too late, newest first: why, and whether an admin has refunded it. */
export async function latePaymentsOf(db: Database, consultationId: string) {
  // Built by the query builder, which names each column with its table: in a hand-written subquery of
  // a one-table select, drizzle writes `"id"`, which SQLite reads as the refund's own id.
  const settledRefund = db
    .select({ settledAt: max(refunds.settledAt) })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payments.id), eq(refunds.status, "succeeded")));
  const rows = await db
    .select({
      id: payments.id,
      status: payments.status,
      txRef: payments.txRef,
      paidAt: payments.paidAt,
      amountSantim: payments.amountSantim,
      // Sent back by the provider, or recorded by an admin as sent back outside it.
      refundedAt: sql<Date | null>`coalesce(${payments.refundedAt}, (${settledRefund}))`.mapWith((value: number | null) =>
        value === null ? null : new Date(value),
      ),
    })
    .from(payments)
    .where(and(eq(payments.consultationId, consultationId), inArray(payments.status, ["paid", "paid_after_expiry"])))
    .orderBy(desc(payments.createdAt));
  const paidAts = rows.flatMap((row) => (row.status === "paid" && row.paidAt ? [row.paidAt] : []));
  return rows
    .filter((row) => row.status === "paid_after_expiry")
    .map(({ status: _status, ...row }) => ({ ...row, reason: lateReason(row.paidAt, paidAts) }));
}
