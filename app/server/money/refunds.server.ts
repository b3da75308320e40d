// Refunds through the payment provider (docs/decisions/0028). A refund is recorded first, with the
// ledger entry that takes its amount out of the consultation's escrow, in the batch of the change that
// causes it; only then is the provider asked, under our own unique reference. What settles it is what
// the provider says when asked (its answer, its `charge.refunded` webhook, or the job's later check):
// refunded, the money leaves our books; failed for good, it returns to escrow and admins are shown it.
// A provider that cannot be reached is asked again with backoff, never forgotten.
import { and, desc, eq, isNull, lte, notExists, type SQL, sql } from "drizzle-orm";

import { payments, refunds } from "~/db/schema";
import { refundReturned, refundSettled, refundStarted } from "~/domain/ledger";
import { birrText } from "~/domain/money";
import { consultationLink } from "~/domain/notifications";
import { MAX_REFUND_ATTEMPTS, newRefundReference, nextRefundAttemptAt, type RefundReason } from "~/domain/refunds";
import { auditIfChanged } from "~/server/audit.server";
import { createDatabase, type Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { insertWhere } from "~/server/db/insert-where.server";
import type { AppConfig } from "~/server/env.server";
import { moneyEmail } from "~/server/mail/money-emails.server";
import { paymentProvider } from "~/server/payments/provider.server";
import { tellTimelineMoved } from "~/server/rooms.server";

import { ledgerEntryStatements } from "./ledger.server";
import { deliverTidings, tidingsFor, tidingsStatements } from "./money-tidings.server";

/** What the provider is told a refund is for (it shows it in its dashboard). */
const REASON_FOR_PROVIDER: Record<RefundReason, string> = {
  late_payment: "Paid after the payment window closed",
  duplicate_payment: "Second payment for a consultation already paid",
  dispute: "Refund after a dispute",
  cancelled: "Consultation cancelled after payment",
};

/** How long after the provider took a refund we ask it again, should its webhook not come. */
const CHECK_ACCEPTED_AFTER_MS = 30 * 60_000;

interface RefundPlan {
  paymentId: string;
  consultationId: string;
  amountSantim: number;
  reason: RefundReason;
  requestedBy: string | null;
  /** Why, in an admin's words (read by the patient), when an admin decided it. */
  note?: string | null;
}

/**
 * The statements that record a refund and take its amount out of escrow, for the caller's batch,
 * written only if `onlyIf` holds then. A payment already being (or already) refunded is not refunded
 * again: the unique index lets the insert write nothing, and the ledger entry follows the row.
 */
export function refundStatements(db: Database, plan: RefundPlan, now: Date, onlyIf?: SQL) {
  const id = crypto.randomUUID();
  const reference = newRefundReference();
  const recorded = sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${id})`;
  return {
    refundId: id,
    statements: [
      insertWhere(
        db,
        refunds,
        { id, reference, ...plan, channel: "provider", status: "pending", nextAttemptAt: now, createdAt: now, updatedAt: now },
        onlyIf,
      ),
      ...ledgerEntryStatements(db, refundStarted({ reference, ...plan }), now, recorded),
    ],
  };
}

/** The refund that tells where a payment's money went: its latest one not failed, else its latest (failed, awaiting an admin). */
export async function refundOfPayment(db: Database, paymentId: string): Promise<typeof refunds.$inferSelect | null> {
  const all = await db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(desc(refunds.createdAt));
  return all.find((refund) => refund.status !== "failed") ?? all[0] ?? null;
}

type RefundWithPayment = NonNullable<Awaited<ReturnType<typeof refundWithPayment>>>;

async function refundWithPayment(db: Database, where: SQL) {
  const [row] = await db
    .select({ refund: refunds, txRef: payments.txRef, provider: payments.provider, patientId: payments.patientId })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(where);
  return row ?? null;
}

export type RefundProgress = "settled" | "failed" | "accepted" | "waiting" | "not_pending";

/**
 * Moves a pending refund on: asks the provider what became of it when it has been asked before (a
 * request that timed out may have been taken), and asks for it when not (or when the provider lost it).
 * Claimed first by a conditional update, so two callers at once ask once.
 */
export async function attemptRefund(env: Env, config: AppConfig, refundId: string, now: Date): Promise<RefundProgress> {
  const db = createDatabase(env.DB);
  const row = await refundWithPayment(db, eq(refunds.id, refundId));
  if (!row || row.refund.status !== "pending" || row.refund.channel !== "provider") return "not_pending";
  const provider = paymentProvider(config, env, config.siteOrigin);
  if (row.refund.attempts > 0 || row.refund.accepted) {
    const progress = await settleRefund(env, config, row.refund.reference, now);
    if (row.refund.accepted && (progress === "waiting" || progress === "accepted"))
      // Taken and not yet settled: asked again in half an hour, should its webhook not come.
      await db
        .update(refunds)
        .set({ nextAttemptAt: new Date(now.getTime() + CHECK_ACCEPTED_AFTER_MS) })
        .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")));
    if (progress !== "waiting" || row.refund.accepted) return progress;
  }
  const claimed = await db
    .update(refunds)
    .set({ attempts: sql`${refunds.attempts} + 1`, nextAttemptAt: nextRefundAttemptAt(row.refund.attempts + 1, now), updatedAt: now })
    .where(
      and(eq(refunds.id, refundId), eq(refunds.status, "pending"), eq(refunds.accepted, false), eq(refunds.attempts, row.refund.attempts)),
    )
    .returning({ attempts: refunds.attempts });
  if (claimed.length === 0 || provider.name !== row.provider) return "waiting";
  const outcome = await provider.refund({
    txRef: row.txRef,
    reference: row.refund.reference,
    amountSantim: row.refund.amountSantim,
    reason: REASON_FOR_PROVIDER[row.refund.reason],
  });
  if (outcome.kind === "accepted") {
    await db
      .update(refunds)
      .set({
        accepted: true,
        providerReference: outcome.providerReference,
        lastError: null,
        nextAttemptAt: new Date(now.getTime() + CHECK_ACCEPTED_AFTER_MS),
        updatedAt: now,
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")));
    return "accepted";
  }
  await db
    .update(refunds)
    .set({ lastError: outcome.message.slice(0, 500), updatedAt: now })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")));
  if (claimed[0]!.attempts >= MAX_REFUND_ATTEMPTS) {
    await failRefund(db, row, outcome.message, now);
    return "failed";
  }
  return "waiting";
}

/**
 * Settles a pending refund by what the provider says of it now (after its webhook, or from the job):
 * refunded, recorded once with its ledger entry, and the patient told; failed, returned to escrow.
 */
async function settleRefund(env: Env, config: AppConfig, reference: string, now: Date): Promise<RefundProgress> {
  const db = createDatabase(env.DB);
  const row = await refundWithPayment(db, eq(refunds.reference, reference));
  if (!row || row.refund.status !== "pending") return "not_pending";
  const provider = paymentProvider(config, env, config.siteOrigin);
  if (provider.name !== row.provider) return "waiting";
  const verified = await provider.verifyRefund({ txRef: row.txRef, reference });
  await db.update(refunds).set({ lastCheckedAt: now }).where(eq(refunds.id, row.refund.id));
  if (!verified || verified.status === "unknown") {
    if (verified) await noteRefund(db, row.refund.id, `The provider says "${verified.providerStatus}"`, now);
    return "waiting";
  }
  if (verified.status === "pending") {
    await db
      .update(refunds)
      .set({ accepted: true, updatedAt: now })
      .where(and(eq(refunds.id, row.refund.id), eq(refunds.status, "pending")));
    return "accepted";
  }
  if (verified.status === "failed") {
    await failRefund(db, row, `The provider says "${verified.providerStatus}"`, now);
    return "failed";
  }
  if (verified.amountSantim !== null && verified.amountSantim !== row.refund.amountSantim) {
    // Refunded, but not what we asked: kept pending and shown to admins, never settled on a guess.
    await noteRefund(
      db,
      row.refund.id,
      `The provider refunded ${birrText(verified.amountSantim)} ETB, not ${birrText(row.refund.amountSantim)} ETB`,
      now,
    );
    return "waiting";
  }
  await markRefundSucceeded(db, config, row, now);
  await tellTimelineMoved(env, row.refund.consultationId);
  return "settled";
}

async function noteRefund(db: Database, refundId: string, message: string, now: Date) {
  await db
    .update(refunds)
    .set({ lastError: message.slice(0, 500), updatedAt: now })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")));
}

async function markRefundSucceeded(db: Database, config: AppConfig, row: RefundWithPayment, now: Date) {
  const { refund } = row;
  const consultation = await findConsultationById(db, refund.consultationId);
  const link = consultationLink("patient", refund.consultationId);
  const told = await tidingsFor(db, row.patientId, { kind: "money_refunded", consultationId: refund.consultationId, link }, (t, to) =>
    moneyEmail(
      t,
      to,
      "moneyRefunded",
      { amount: birrText(refund.amountSantim), title: consultation?.title ?? "" },
      `${config.siteOrigin}${link}`,
    ),
  );
  const changeId = crypto.randomUUID();
  const settledByThisCall = and(eq(refunds.id, refund.id), eq(refunds.lastChangeId, changeId));
  const tidings = tidingsStatements(db, [told], now, sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${settledByThisCall})`);
  await db.batch([
    db
      .update(refunds)
      .set({ status: "succeeded", accepted: true, settledAt: now, lastError: null, lastChangeId: changeId, updatedAt: now })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending"))),
    ...ledgerEntryStatements(
      db,
      refundSettled({
        reference: refund.reference,
        consultationId: refund.consultationId,
        paymentId: refund.paymentId,
        amountSantim: refund.amountSantim,
      }),
      now,
      sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${settledByThisCall})`,
    ),
    auditIfChanged(db, refunds, settledByThisCall, {
      action: "refund.settled",
      actorId: null,
      targetType: "consultation",
      targetId: refunds.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${refunds.reference}, 'amountSantim', ${refunds.amountSantim})`,
      now,
    }),
    ...tidings.statements,
  ]);
  await deliverTidings(db, config, tidings.mailIds);
}

/** A refund the provider will not make: its amount back in escrow, and admins shown it (audited), once. */
async function failRefund(db: Database, row: RefundWithPayment, message: string, now: Date) {
  const { refund } = row;
  const changeId = crypto.randomUUID();
  const failedByThisCall = and(eq(refunds.id, refund.id), eq(refunds.lastChangeId, changeId));
  await db.batch([
    db
      .update(refunds)
      .set({ status: "failed", lastError: message.slice(0, 500), nextAttemptAt: null, lastChangeId: changeId, updatedAt: now })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending"))),
    ...ledgerEntryStatements(
      db,
      refundReturned({
        reference: refund.reference,
        consultationId: refund.consultationId,
        paymentId: refund.paymentId,
        amountSantim: refund.amountSantim,
      }),
      now,
      sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${failedByThisCall})`,
    ),
    auditIfChanged(db, refunds, failedByThisCall, {
      action: "refund.failed",
      actorId: null,
      targetType: "consultation",
      targetId: refunds.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${refunds.reference}, 'reason', ${refunds.lastError})`,
      now,
    }),
  ]);
}

/**
 * The provider's word that a payment was refunded or reversed: our refund under that reference (or,
 * when it names none, each refund of that payment still pending) settled by what the provider says.
 */
export async function settleRefundsOf(env: Env, config: AppConfig, txRef: string, reference: string | null, now: Date) {
  const db = createDatabase(env.DB);
  const pending = await db
    .select({ reference: refunds.reference })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(payments.txRef, txRef),
        eq(refunds.status, "pending"),
        eq(refunds.channel, "provider"),
        reference ? eq(refunds.reference, reference) : undefined,
      ),
    );
  if (pending.length === 0) {
    // Ours and settled already (a replayed webhook, or one that raced the job): nothing to do.
    const ours = reference
      ? await db.query.refunds.findFirst({ where: eq(refunds.reference, reference), columns: { status: true } })
      : null;
    if (ours) return "not_pending";
    // Not a refund of ours (one made at the provider's dashboard, or a bank's reversal): admins must look.
    console.error(JSON.stringify({ event: "refund_webhook_without_refund", txRef, reference }));
    return "no_pending_refund";
  }
  const outcomes = [];
  for (const refund of pending) outcomes.push(await settleRefund(env, config, refund.reference, now));
  return outcomes.join(",");
}

/**
 * A late or second payment is refunded by itself: recorded (once, whoever asks: the confirmation that
 * found it late, or the job sweeping for any left without one) and asked of the provider.
 */
export async function refundLatePayment(env: Env, config: AppConfig, paymentId: string, reason: RefundReason, now: Date) {
  const db = createDatabase(env.DB);
  const payment = await db.query.payments.findFirst({ where: eq(payments.id, paymentId) });
  if (!payment || payment.status !== "paid_after_expiry" || payment.refundedAt) return null;
  const { refundId, statements } = refundStatements(
    db,
    { paymentId, consultationId: payment.consultationId, amountSantim: payment.amountSantim, reason, requestedBy: null },
    now,
  );
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  const recorded = await db.query.refunds.findFirst({ where: eq(refunds.id, refundId) });
  return recorded ? attemptRefund(env, config, refundId, now) : null;
}

export type RetryOutcome = "retried" | "not_failed" | "superseded" | "not_found";

/**
 * An admin asks again for a refund the provider failed (its amount went back to escrow): a new refund
 * under a new reference, recorded with its ledger entry before the provider is asked, unless another
 * refund of that payment is already under way or done (the partial unique index holds that too).
 */
export async function retryRefund(env: Env, config: AppConfig, adminId: string, refundId: string, now: Date): Promise<RetryOutcome> {
  const db = createDatabase(env.DB);
  const failed = await db.query.refunds.findFirst({ where: eq(refunds.id, refundId) });
  if (!failed) return "not_found";
  if (failed.status !== "failed" || failed.channel !== "provider") return "not_failed";
  const noneSince = sql`NOT EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.paymentId} = ${failed.paymentId} AND ${refunds.status} <> 'failed')`;
  const plan = {
    paymentId: failed.paymentId,
    consultationId: failed.consultationId,
    amountSantim: failed.amountSantim,
    reason: failed.reason,
    requestedBy: adminId,
  };
  const { refundId: retryId, statements } = refundStatements(db, plan, now, noneSince);
  await db.batch([
    ...(statements as [(typeof statements)[number], ...typeof statements]),
    auditIfChanged(db, refunds, eq(refunds.id, retryId), {
      action: "refund.retried",
      actorId: adminId,
      targetType: "consultation",
      targetId: refunds.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${refunds.reference}, 'amountSantim', ${refunds.amountSantim}, 'after', ${failed.reference})`,
      now,
    }),
  ]);
  if (!(await db.query.refunds.findFirst({ where: eq(refunds.id, retryId), columns: { id: true } }))) return "superseded";
  await attemptRefund(env, config, retryId, now);
  return "retried";
}

/** Refunds the job moves on in one run. */
const REFUNDS_PER_RUN = 50;

/** The job: late payments with no refund yet get one; pending refunds due are asked about or asked for again. */
export async function moveRefundsOn(env: Env, config: AppConfig, now: Date) {
  const db = createDatabase(env.DB);
  const unrefunded = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.status, "paid_after_expiry"),
        isNull(payments.refundedAt),
        notExists(
          db
            .select({ id: refunds.id })
            .from(refunds)
            // One that failed for good waits for an admin (shown in finance), not a new try every run.
            .where(eq(refunds.paymentId, payments.id)),
        ),
      ),
    )
    .limit(REFUNDS_PER_RUN);
  let started = 0;
  for (const { id } of unrefunded) if (await refundLatePayment(env, config, id, "late_payment", now)) started += 1;
  const due = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, "pending"), eq(refunds.channel, "provider"), lte(refunds.nextAttemptAt, now)))
    .limit(REFUNDS_PER_RUN);
  const progress: Record<RefundProgress, number> = { settled: 0, failed: 0, accepted: 0, waiting: 0, not_pending: 0 };
  for (const { id } of due) progress[await attemptRefund(env, config, id, now)] += 1;
  return { started, ...progress };
}
