// Every payment for the admins (late ones waiting for a refund first, then those flagged for review
// with what the provider said), and recording a refund: once, with who and when, however many admins
// or clicks ask at the same moment.
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";

import { auditLog, consultations, payments, profiles, users } from "~/db/schema";
import type { PageRequest } from "~/domain/paging";
import { awaitingRefund } from "~/server/admin/overview.server";
import { auditIfChanged } from "~/server/audit.server";
import { clientAddress } from "~/server/client-address.server";
import type { Database } from "~/server/db/client.server";
import type { ProviderAnswer } from "~/server/db/payments.server";

const refunder = alias(profiles, "refunder_profile");

export async function paymentsForAdmins(db: Database, page: PageRequest) {
  const waiting = sql<number>`CASE WHEN ${awaitingRefund} THEN 1 ELSE 0 END`;
  const rows = await db
    .select({
      id: payments.id,
      consultationId: payments.consultationId,
      txRef: payments.txRef,
      provider: payments.provider,
      amountSantim: payments.amountSantim,
      currency: payments.currency,
      status: payments.status,
      needsAdminReview: payments.needsAdminReview,
      reviewReason: payments.reviewReason,
      providerAnswer: payments.providerAnswer,
      createdAt: payments.createdAt,
      paidAt: payments.paidAt,
      refundedAt: payments.refundedAt,
      awaitingRefund: waiting,
      consultationTitle: consultations.title,
      patientEmail: users.email,
      patientFirstName: profiles.firstName,
      patientLastName: profiles.lastName,
      refunderFirstName: refunder.firstName,
      refunderLastName: refunder.lastName,
    })
    .from(payments)
    .leftJoin(consultations, eq(consultations.id, payments.consultationId))
    .leftJoin(users, eq(users.id, payments.patientId))
    .leftJoin(profiles, eq(profiles.userId, payments.patientId))
    .leftJoin(refunder, eq(refunder.userId, payments.refundedBy))
    .orderBy(desc(waiting), desc(isNotNull(payments.reviewReason)), desc(payments.createdAt), desc(payments.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => ({
    id: row.id,
    consultationId: row.consultationId,
    consultationTitle: row.consultationTitle ?? "",
    txRef: row.txRef,
    provider: row.provider,
    amountSantim: row.amountSantim,
    status: row.status,
    needsAdminReview: row.needsAdminReview,
    review: row.reviewReason ? { reason: row.reviewReason, providerAnswer: providerAnswerOf(row.providerAnswer) } : null,
    awaitingRefund: Number(row.awaitingRefund) === 1,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    refund: row.refundedAt
      ? { at: row.refundedAt.toISOString(), by: `${row.refunderFirstName ?? ""} ${row.refunderLastName ?? ""}`.trim() }
      : null,
    patient: { name: `${row.patientFirstName ?? ""} ${row.patientLastName ?? ""}`.trim(), email: row.patientEmail ?? "" },
  }));
}

/** The stored answer, if it is still one (it is written by this app, but a row is never trusted blindly). */
function providerAnswerOf(stored: string | null): ProviderAnswer | null {
  if (!stored) return null;
  try {
    const answer = JSON.parse(stored) as Partial<ProviderAnswer>;
    return typeof answer.status === "string" && typeof answer.currency === "string"
      ? {
          status: answer.status,
          amount: typeof answer.amount === "number" ? answer.amount : null,
          currency: answer.currency,
          txRef: String(answer.txRef ?? ""),
        }
      : null;
  } catch {
    return null;
  }
}

export type RefundOutcome = "refunded" | "already" | "not_found" | "not_awaiting";

/**
 * Records that the money of a payment awaiting a refund was sent back. One batch: a conditional UPDATE
 * (only while it still awaits a refund) and the audit entry, written only if that UPDATE changed the
 * row (`changes()` reads the statement just before it), so a double click or two admins record it once.
 */
export async function markPaymentRefunded(db: Database, request: Request, adminId: string, paymentId: string): Promise<RefundOutcome> {
  const now = new Date();
  const [, audited] = await db.batch([
    db
      .update(payments)
      .set({ refundedAt: now, refundedBy: adminId, updatedAt: now })
      .where(and(eq(payments.id, paymentId), awaitingRefund)),
    // The UPDATE just before, in this same batch, changed the row: this call recorded the refund.
    auditIfChanged(db, payments, and(eq(payments.id, paymentId), sql`changes() = 1`), {
      action: "admin.payment_refunded",
      actorId: adminId,
      targetType: "payment",
      targetId: payments.id,
      ipAddress: clientAddress(request),
      details: sql<string>`json_object('txRef', ${payments.txRef}, 'amountSantim', ${payments.amountSantim}, 'consultationId', ${payments.consultationId})`,
      now,
    }).returning({ id: auditLog.id }),
  ]);
  if (audited.length === 1) return "refunded";
  const payment = await db.query.payments.findFirst({ where: eq(payments.id, paymentId), columns: { refundedAt: true } });
  if (!payment) return "not_found";
  return payment.refundedAt ? "already" : "not_awaiting";
}
