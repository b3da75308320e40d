// Every payment for the admins (late ones waiting for a refund first, then those flagged for review
// with what the provider said), and recording a refund: once, with who and when, however many admins
// or clicks ask at the same moment.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";

import { consultations, payments, profiles, refunds, users } from "~/db/schema";
import type { PageRequest } from "~/domain/paging";
import type { Translate } from "~/i18n.server";
import { awaitingRefund } from "~/server/admin/overview.server";
import { auditIfChanged } from "~/server/audit.server";
import { clientAddress } from "~/server/client-address.server";
import { refundedTidings } from "~/server/consultations/tell-patient.server";
import type { Database } from "~/server/db/client.server";
import { type ProviderAnswer, refundedOutsideOf } from "~/server/db/payments.server";
import { shownEmail, shownName } from "~/server/db/profiles.server";
import { outsideLateRefundStatements } from "~/server/money/refunds.server";
import { deliverTidings, tidingsStatements } from "~/server/tidings.server";

const refunder = alias(profiles, "refunder_profile");

export async function paymentsForAdmins(db: Database, t: Translate, page: PageRequest) {
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
      // The latest refund asked of the provider for it, and why it failed if it did.
      providerRefundStatus: sql<
        string | null
      >`(SELECT ${refunds.status} FROM ${refunds} WHERE ${refunds.paymentId} = ${payments.id} AND ${refunds.channel} = 'provider' ORDER BY ${refunds.createdAt} DESC LIMIT 1)`,
      providerRefundError: sql<
        string | null
      >`(SELECT ${refunds.lastError} FROM ${refunds} WHERE ${refunds.paymentId} = ${payments.id} AND ${refunds.channel} = 'provider' ORDER BY ${refunds.createdAt} DESC LIMIT 1)`,
      consultationTitle: consultations.title,
      patientEmail: users.email,
      patientFirstName: profiles.firstName,
      patientLastName: profiles.lastName,
      patientClosedAt: users.closedAt,
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
    providerRefund: row.providerRefundStatus
      ? { status: row.providerRefundStatus as "pending" | "succeeded" | "failed", error: row.providerRefundError }
      : null,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    refund: row.refundedAt
      ? { at: row.refundedAt.toISOString(), by: `${row.refunderFirstName ?? ""} ${row.refunderLastName ?? ""}`.trim() }
      : null,
    patient: {
      name: shownName(t, { firstName: row.patientFirstName, lastName: row.patientLastName, closedAt: row.patientClosedAt }),
      email: shownEmail({ email: row.patientEmail, closedAt: row.patientClosedAt }),
    },
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

export type RefundOutcome = "refunded" | "already" | "not_found" | "not_awaiting" | "in_flight";

/**
 * Records a refund an admin made outside the provider, with their reason: only for a late payment whose
 * money is still ours to give back and with no refund under way at the provider. One batch: the payment
 * marked (a conditional UPDATE), the refund row (only if that UPDATE changed it: `changes()` reads the
 * statement just before), its ledger entry, the audit entry and the patient's tidings (only with that
 * row), so a double click or two admins record it once, and the books and the news move with it.
 */
export async function recordOutsideRefund(
  context: AppLoadContext,
  request: Request,
  adminId: string,
  paymentId: string,
  note: string,
  now: Date,
): Promise<RefundOutcome> {
  const { db } = context;
  const payment = await db.query.payments.findFirst({ where: eq(payments.id, paymentId) });
  if (!payment) return "not_found";
  const tidings = await refundedTidings(db, payment, new URL(request.url).origin);
  const noneUnderWay = sql`NOT EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.paymentId} = ${paymentId} AND ${refunds.status} = 'pending')`;
  // The refund row only if the payment's mark just before it took (`changes()` reads that statement).
  const { refundId, statements } = outsideLateRefundStatements(
    db,
    { paymentId, consultationId: payment.consultationId, amountSantim: payment.amountSantim, note, requestedBy: adminId },
    now,
    sql`changes() = 1`,
  );
  // The patient hears it (notification and email) with the refund row, so once however many ask.
  const told = tidingsStatements(db, [tidings], now, sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${refundId})`);
  await db.batch([
    refundedOutsideOf(db, paymentId, adminId, and(awaitingRefund, noneUnderWay), now),
    ...statements,
    auditIfChanged(db, refunds, eq(refunds.id, refundId), {
      action: "admin.payment_refunded",
      actorId: adminId,
      targetType: "payment",
      targetId: refunds.paymentId,
      ipAddress: clientAddress(request),
      details: sql<string>`json_object('txRef', ${payment.txRef}, 'amountSantim', ${refunds.amountSantim}, 'consultationId', ${refunds.consultationId}, 'note', ${refunds.note})`,
      now,
    }),
    ...told.statements,
  ]);
  if (await db.query.refunds.findFirst({ where: eq(refunds.id, refundId), columns: { id: true } })) {
    await deliverTidings(db, context.config, told, context);
    return "refunded";
  }
  const after = await db.query.payments.findFirst({ where: eq(payments.id, paymentId), columns: { refundedAt: true, status: true } });
  const underWay = await db.query.refunds.findFirst({ where: and(eq(refunds.paymentId, paymentId), eq(refunds.status, "pending")) });
  if (underWay) return "in_flight";
  const settled = await db.query.refunds.findFirst({ where: and(eq(refunds.paymentId, paymentId), eq(refunds.status, "succeeded")) });
  return after?.refundedAt || settled ? "already" : "not_awaiting";
}
