// Refunds through the payment provider (docs/decisions/0028). A refund is recorded first, with the
// ledger entry that takes its amount out of the consultation's escrow, in the batch of the change that
// causes it; only then is the provider asked, under our own unique reference. What settles it is what
// the provider says when asked (its answer, its `charge.refunded` webhook, or the job's later check):
// refunded, the money leaves our books; failed for good, it returns to escrow and admins are shown it.
// A provider that cannot be reached is asked again with backoff, never forgotten.
import { and, desc, eq, isNull, lte, notExists, type SQL, sql } from "drizzle-orm";

import { payments, refunds } from "~/db/schema";
import { madeOutside, refundReturned, refundSettled, refundStarted } from "~/domain/ledger";
import { birrText } from "~/domain/money";
import { consultationLink } from "~/domain/notifications";
import {
  MAX_REFUND_ATTEMPTS,
  newRefundReference,
  nextRefundAttemptAt,
  REFUND_MOVES,
  type RefundReason,
  stuckReasonAfter,
} from "~/domain/refunds";
import { auditIfChanged } from "~/server/audit.server";
import { createDatabase, type Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { insertWhere } from "~/server/db/insert-where.server";
import { refundedOf } from "~/server/db/refunded.server";
import type { AppConfig } from "~/server/env.server";
import { moneyEmail } from "~/server/mail/money-emails.server";
import { paymentProvider } from "~/server/payments/provider.server";
import { tellTimelineMoved } from "~/server/rooms.server";
import { deliverTidings, tidingsFor, tidingsStatements } from "~/server/tidings.server";

import { takeBackOf } from "./chargebacks.server";
import { ledgerEntryStatements } from "./ledger.server";

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

/**
 * The statements that record a late payment's refund an admin made outside the provider (succeeded at
 * once, with their note) and its ledger entry, for the caller's batch, written only if `onlyIf` holds
 * then; the row first, so an `onlyIf` of `changes() = 1` reads the statement just before the call's.
 */
export function outsideLateRefundStatements(
  db: Database,
  plan: { paymentId: string; consultationId: string; amountSantim: number; note: string; requestedBy: string },
  now: Date,
  onlyIf: SQL,
) {
  const id = crypto.randomUUID();
  const reference = `outside-${id}`;
  const recorded = sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${id})`;
  return {
    refundId: id,
    statements: [
      insertWhere(
        db,
        refunds,
        {
          id,
          ...plan,
          reference,
          reason: "late_payment",
          channel: "outside",
          status: "succeeded",
          accepted: true,
          settledAt: now,
          createdAt: now,
          updatedAt: now,
        },
        onlyIf,
      ),
      ...ledgerEntryStatements(
        db,
        madeOutside({
          from: "escrow",
          reference,
          consultationId: plan.consultationId,
          paymentId: plan.paymentId,
          amountSantim: plan.amountSantim,
        }),
        now,
        recorded,
      ),
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
    .select({
      refund: refunds,
      txRef: payments.txRef,
      provider: payments.provider,
      patientId: payments.patientId,
      paymentAmountSantim: payments.amountSantim,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(where);
  return row ?? null;
}

/**
 * Where a refund stands after one step: settled or failed (only by what the provider says); taken and
 * not yet made; waiting (the provider could not be asked, or gave no answer we can act on); before an
 * admin; or not pending any more.
 */
export type RefundProgress = "settled" | "failed" | "accepted" | "waiting" | "review" | "not_pending";

/**
 * Moves a pending refund on: asks the provider what became of it when it was asked before (a request
 * whose answer was lost may have been taken), and asks for it (again, under the same reference) while the
 * payment still reads paid and the provider never took it. It fails only when the provider refused it and
 * the payment still reads paid; after MAX_REFUND_ATTEMPTS asks without a decision it waits for an admin.
 * Claimed first by a conditional update, so two callers at once ask once. `force`: an admin asked.
 */
export async function attemptRefund(
  env: Env,
  config: AppConfig,
  refundId: string,
  now: Date,
  { force = false } = {},
): Promise<RefundProgress> {
  const db = createDatabase(env.DB);
  const row = await refundWithPayment(db, eq(refunds.id, refundId));
  if (!row || row.refund.status !== "pending" || row.refund.channel !== "provider") return "not_pending";
  if (row.refund.reviewReason && !force) return "review";
  const provider = paymentProvider(config, env, config.siteOrigin);
  if (provider.name !== row.provider) return "waiting";
  const { refund } = row;
  const claimed = await db
    .update(refunds)
    .set({
      attempts: sql`${refunds.attempts} + 1`,
      reviewReason: null,
      nextAttemptAt: refund.accepted ? new Date(now.getTime() + CHECK_ACCEPTED_AFTER_MS) : nextRefundAttemptAt(refund.attempts + 1, now),
      lastCheckedAt: now,
      updatedAt: now,
    })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending"), eq(refunds.attempts, refund.attempts)))
    .returning({ attempts: refunds.attempts });
  if (claimed.length === 0) return "waiting";
  const asks = force ? 1 : claimed[0]!.attempts;
  if (refund.accepted || refund.attempts > 0) {
    const known = await settleRefund(env, config, refund.reference, now);
    if (known !== "not_refunded" && known !== "waiting" && known !== "unknown") return known;
    // Taken and still being made, or the provider cannot say: not asked for again, asked about until an admin decides.
    if (refund.accepted || known !== "not_refunded") return stuckAfter(db, refund.id, asks, known === "unknown", now);
  }
  const outcome = await provider.refund({
    txRef: row.txRef,
    reference: refund.reference,
    amountSantim: refund.amountSantim,
    reason: REASON_FOR_PROVIDER[refund.reason],
  });
  if (outcome.kind === "accepted" || outcome.kind === "reference_used") {
    // The provider's own answer that it gave back this much under our reference settles it, a part too.
    if (outcome.kind === "accepted" && outcome.amountSantim) {
      const known = await settleRefund(env, config, refund.reference, now, { amountSaidSantim: outcome.amountSantim });
      if (known === "settled" || known === "review" || known === "not_pending") return known;
    }
    await db
      .update(refunds)
      .set({
        accepted: true,
        providerReference: outcome.kind === "accepted" ? outcome.providerReference : refund.providerReference,
        lastError: null,
        nextAttemptAt: new Date(now.getTime() + CHECK_ACCEPTED_AFTER_MS),
        updatedAt: now,
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")));
    return "accepted";
  }
  await noteRefund(db, refund.id, outcome.message, now);
  if (outcome.kind === "refused") {
    // A refusal is a failure only once the provider's verify shows nothing was given back.
    const known = await settleRefund(env, config, refund.reference, now, { refusal: outcome.message });
    if (known !== "not_refunded" && known !== "waiting" && known !== "unknown") return known;
  }
  return stuckAfter(db, refund.id, asks, false, now);
}

/** After `asks` asks with no decision: before an admin once they reach MAX_REFUND_ATTEMPTS (stuckReasonAfter), else waiting for the next. */
async function stuckAfter(db: Database, refundId: string, asks: number, unknownStatus: boolean, now: Date): Promise<RefundProgress> {
  const reviewReason = stuckReasonAfter(asks, MAX_REFUND_ATTEMPTS, unknownStatus);
  if (!reviewReason) return "waiting";
  await db
    .update(refunds)
    .set({ reviewReason, nextAttemptAt: null, updatedAt: now })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")));
  return "review";
}

/** What else settles a refund than the payment reading refunded: the provider's refusal just now, or its signed webhook naming our reference. */
interface RefundEvidence {
  refusal?: string;
  /**
   * The amount the provider said it gave back for this refund's reference: in its answer to our request,
   * or in its signed `charge.refunded` webhook (a partial refund leaves the payment reading paid).
   */
  amountSaidSantim?: number | null;
}

/**
 * Settles a pending refund by what the provider says now (Chapa has no refund verify: the payment's
 * transaction is read): given back in full, and this refund is what was left, settles it; given back in
 * full while this refund is only a part of what was left (a dispute's part refund, and the payment then
 * charged back or refunded in the provider's dashboard), settles it too (the patient has its money) and
 * charges back the rest as taken back without us (takeBackOf: from the escrow or the release, before an
 * admin); still paid fails it only after the provider refused it (`evidence.refusal`), and settles a
 * partial refund only on its signed webhook's word for our reference and amount. Anything else leaves it
 * pending: `not_refunded` (not made yet, or never taken), `unknown`, `waiting` (the provider could not be
 * asked), or before an admin when amounts disagree (the provider names our reference with another amount).
 */
async function settleRefund(
  env: Env,
  config: AppConfig,
  reference: string,
  now: Date,
  evidence: RefundEvidence = {},
): Promise<RefundProgress | "not_refunded" | "unknown"> {
  const db = createDatabase(env.DB);
  const row = await refundWithPayment(db, eq(refunds.reference, reference));
  if (!row || row.refund.status !== "pending" || row.refund.channel !== "provider") return "not_pending";
  const provider = paymentProvider(config, env, config.siteOrigin);
  if (provider.name !== row.provider) return "waiting";
  const verified = await provider.verifyRefund({ txRef: row.txRef, reference });
  await db.update(refunds).set({ lastCheckedAt: now }).where(eq(refunds.id, row.refund.id));
  if (!verified) return "waiting";
  if (verified.status === "unknown") {
    await noteRefund(db, row.refund.id, `The provider says "${verified.providerStatus}"`, now);
    return "unknown";
  }
  if (verified.status === "refunded") {
    const leftSantim = row.paymentAmountSantim - (await refundedOf(db, row.refund.paymentId));
    if (row.refund.amountSantim === leftSantim) return settled(env, config, db, row, now);
    // The whole payment is back with the patient, this refund's part with it, unless the provider said
    // it gave back another amount under our reference. The rest went back without us: charged back once
    // this refund is settled (a refund pending stops takeBackOf), so the money leaves the books once.
    const saidOtherwise = evidence.amountSaidSantim != null && evidence.amountSaidSantim !== row.refund.amountSantim;
    if (row.refund.amountSantim < leftSantim && !saidOtherwise) {
      const progress = await settled(env, config, db, row, now);
      await takeBackOf(env, config, row.txRef, now);
      return progress;
    }
    return differs(
      db,
      row.refund.id,
      `The provider reads the whole payment given back; this refund is ${birrText(row.refund.amountSantim)} ETB of ${birrText(leftSantim)} ETB left`,
      now,
    );
  }
  if (evidence.refusal !== undefined && !row.refund.accepted) {
    await failRefund(db, row, evidence.refusal, now);
    return "failed";
  }
  if (evidence.amountSaidSantim !== undefined && evidence.amountSaidSantim !== null) {
    if (evidence.amountSaidSantim === row.refund.amountSantim) return settled(env, config, db, row, now);
    return differs(
      db,
      row.refund.id,
      `The provider refunded ${birrText(evidence.amountSaidSantim)} ETB, not ${birrText(row.refund.amountSantim)} ETB`,
      now,
    );
  }
  return "not_refunded";
}

async function settled(env: Env, config: AppConfig, db: Database, row: RefundWithPayment, now: Date): Promise<RefundProgress> {
  await markRefundSucceeded(db, config, row, now);
  await tellTimelineMoved(env, row.refund.consultationId);
  return "settled";
}

/** Given back, but not what we asked: kept pending before an admin, never settled on a guess. */
async function differs(db: Database, refundId: string, message: string, now: Date): Promise<RefundProgress> {
  await db
    .update(refunds)
    .set({ reviewReason: "amount_differs", lastError: message.slice(0, 500), nextAttemptAt: null, updatedAt: now })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")));
  return "review";
}

async function noteRefund(db: Database, refundId: string, message: string, now: Date) {
  await db
    .update(refunds)
    .set({ lastError: message.slice(0, 500), updatedAt: now })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")));
}

/**
 * The one writer of a refund's success (REFUND_MOVES: pending to succeeded), once: its ledger entry
 * (made by the provider, or outside it by an admin with their reason), its audit entry and the patient
 * told, in one batch.
 */
async function markRefundSucceeded(
  db: Database,
  config: AppConfig,
  row: RefundWithPayment,
  now: Date,
  outside?: { adminId: string; note: string },
) {
  const { refund } = row;
  if (!REFUND_MOVES[refund.status].includes("succeeded")) return;
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
  const onlyIfSettled = sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${settledByThisCall})`;
  const tidings = tidingsStatements(db, [told], now, onlyIfSettled);
  const planned = {
    reference: refund.reference,
    consultationId: refund.consultationId,
    paymentId: refund.paymentId,
    amountSantim: refund.amountSantim,
  };
  await db.batch([
    db
      .update(refunds)
      .set({
        status: "succeeded",
        accepted: true,
        settledAt: now,
        lastError: outside ? refund.lastError : null,
        reviewReason: null,
        nextAttemptAt: null,
        ...(outside ? { channel: "outside" as const, note: outside.note, requestedBy: outside.adminId } : {}),
        lastChangeId: changeId,
        updatedAt: now,
      })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending"))),
    ...ledgerEntryStatements(
      db,
      outside ? madeOutside({ from: "refunds_in_transit", ...planned }) : refundSettled(planned),
      now,
      onlyIfSettled,
    ),
    auditIfChanged(db, refunds, settledByThisCall, {
      action: outside ? "refund.settled_outside" : "refund.settled",
      actorId: outside?.adminId ?? null,
      targetType: "consultation",
      targetId: refunds.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${refunds.reference}, 'amountSantim', ${refunds.amountSantim}, 'note', ${refunds.note})`,
      now,
    }),
    ...tidings.statements,
  ]);
  await deliverTidings(db, config, tidings);
}

/** A refund the provider will not make: its amount back in escrow, and admins shown it (audited), once. */
async function failRefund(db: Database, row: RefundWithPayment, message: string, now: Date, adminId: string | null = null) {
  const { refund } = row;
  if (!REFUND_MOVES[refund.status].includes("failed")) return;
  const changeId = crypto.randomUUID();
  const failedByThisCall = and(eq(refunds.id, refund.id), eq(refunds.lastChangeId, changeId));
  await db.batch([
    db
      .update(refunds)
      .set({
        status: "failed",
        lastError: message.slice(0, 500),
        reviewReason: null,
        nextAttemptAt: null,
        lastChangeId: changeId,
        updatedAt: now,
      })
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
      actorId: adminId,
      targetType: "consultation",
      targetId: refunds.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${refunds.reference}, 'reason', ${refunds.lastError})`,
      now,
    }),
  ]);
}

/**
 * The provider's signed word that a payment was refunded or reversed: our refund under that reference
 * (or, when it names none, each refund of that payment still pending) settled by what the provider says.
 * A reversal or refund of a paid payment that is none of ours (a chargeback, a refund made in the
 * provider's dashboard) takes its money back from the books and puts it before an admin.
 */
export async function settleRefundsOf(
  env: Env,
  config: AppConfig,
  event: { txRef: string; reference: string | null; amountSantim: number | null },
  now: Date,
): Promise<string> {
  const db = createDatabase(env.DB);
  const pending = await db
    .select({ reference: refunds.reference })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(payments.txRef, event.txRef),
        eq(refunds.status, "pending"),
        eq(refunds.channel, "provider"),
        event.reference ? eq(refunds.reference, event.reference) : undefined,
      ),
    );
  if (pending.length === 0) {
    // Ours and settled already (a replayed webhook, or one that raced the job): nothing to do.
    const ours = event.reference
      ? await db.query.refunds.findFirst({ where: eq(refunds.reference, event.reference), columns: { status: true } })
      : null;
    if (ours) return "not_pending";
    return takeBackOf(env, config, event.txRef, now);
  }
  const outcomes = [];
  for (const refund of pending)
    outcomes.push(await settleRefund(env, config, refund.reference, now, event.reference ? { amountSaidSantim: event.amountSantim } : {}));
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
    .where(
      and(eq(refunds.status, "pending"), eq(refunds.channel, "provider"), isNull(refunds.reviewReason), lte(refunds.nextAttemptAt, now)),
    )
    .limit(REFUNDS_PER_RUN);
  const progress: Record<RefundProgress, number> = { settled: 0, failed: 0, accepted: 0, waiting: 0, review: 0, not_pending: 0 };
  for (const { id } of due) progress[await attemptRefund(env, config, id, now)] += 1;
  return { started, ...progress };
}

export type RefundDecision = "asked" | "settled_outside" | "failed" | "not_confirmed" | "not_pending" | "superseded";

/**
 * An admin's decision on a refund the provider has not settled: for one still pending, ask the provider
 * again, record it made outside the provider with their reason, or fail it, which only the provider's
 * word that the payment still reads paid allows; for one that failed (its money back in escrow), record
 * it made outside the provider (asking again under a new reference is `retryRefund`).
 */
export async function decideRefund(
  env: Env,
  config: AppConfig,
  adminId: string,
  refundId: string,
  decision: { kind: "ask_again" } | { kind: "settled_outside"; note: string } | { kind: "fail" },
  now: Date,
): Promise<{ outcome: RefundDecision; providerSays?: string }> {
  const db = createDatabase(env.DB);
  const row = await refundWithPayment(db, eq(refunds.id, refundId));
  if (!row) return { outcome: "not_pending" };
  if (row.refund.status === "failed") {
    if (decision.kind !== "settled_outside") return { outcome: "not_pending" };
    return { outcome: await settleFailedRefundOutside(db, config, adminId, row, decision.note, now) };
  }
  if (row.refund.status !== "pending") return { outcome: "not_pending" };
  if (decision.kind === "ask_again") {
    const progress = await attemptRefund(env, config, refundId, now, { force: true });
    return { outcome: progress === "not_pending" ? "not_pending" : "asked" };
  }
  if (decision.kind === "settled_outside") {
    await markRefundSucceeded(db, config, row, now, { adminId, note: decision.note });
    const after = await db.query.refunds.findFirst({ where: eq(refunds.id, refundId), columns: { channel: true, status: true } });
    return { outcome: after?.status === "succeeded" && after.channel === "outside" ? "settled_outside" : "not_pending" };
  }
  const verified = await paymentProvider(config, env, config.siteOrigin).verifyRefund({
    txRef: row.txRef,
    reference: row.refund.reference,
  });
  if (verified?.status !== "not_refunded") return { outcome: "not_confirmed", providerSays: verified?.providerStatus ?? "" };
  await failRefund(db, row, `Failed by an admin: the provider reads the payment "${verified.providerStatus}"`, now, adminId);
  return { outcome: "failed" };
}

/**
 * A failed refund made outside the provider by an admin: a refund of its own (channel outside) that takes
 * the amount from the escrow it returned to, as money paid from the platform's bank; once, and only while
 * no other refund of that payment is under way or done since.
 */
async function settleFailedRefundOutside(
  db: Database,
  config: AppConfig,
  adminId: string,
  failed: RefundWithPayment,
  note: string,
  now: Date,
): Promise<RefundDecision> {
  const { refund } = failed;
  const id = crypto.randomUUID();
  const reference = `outside-${id}`;
  const noneSince = sql`NOT EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.paymentId} = ${refund.paymentId} AND ${refunds.status} <> 'failed')`;
  const recorded = sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${id})`;
  const consultation = await findConsultationById(db, refund.consultationId);
  const link = consultationLink("patient", refund.consultationId);
  const told = await tidingsFor(db, failed.patientId, { kind: "money_refunded", consultationId: refund.consultationId, link }, (t, to) =>
    moneyEmail(
      t,
      to,
      "moneyRefunded",
      { amount: birrText(refund.amountSantim), title: consultation?.title ?? "" },
      `${config.siteOrigin}${link}`,
    ),
  );
  const tidings = tidingsStatements(db, [told], now, recorded);
  await db.batch([
    insertWhere(
      db,
      refunds,
      {
        id,
        paymentId: refund.paymentId,
        consultationId: refund.consultationId,
        reference,
        amountSantim: refund.amountSantim,
        reason: refund.reason,
        channel: "outside",
        status: "succeeded",
        accepted: true,
        note,
        requestedBy: adminId,
        settledAt: now,
        createdAt: now,
        updatedAt: now,
      },
      noneSince,
    ),
    ...ledgerEntryStatements(
      db,
      madeOutside({
        from: "escrow",
        reference,
        consultationId: refund.consultationId,
        paymentId: refund.paymentId,
        amountSantim: refund.amountSantim,
      }),
      now,
      recorded,
    ),
    auditIfChanged(db, refunds, eq(refunds.id, id), {
      action: "refund.settled_outside",
      actorId: adminId,
      targetType: "consultation",
      targetId: refunds.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${refunds.reference}, 'amountSantim', ${refunds.amountSantim}, 'after', ${refund.reference}, 'note', ${refunds.note})`,
      now,
    }),
    ...tidings.statements,
  ]);
  if (!(await db.query.refunds.findFirst({ where: eq(refunds.id, id), columns: { id: true } }))) return "superseded";
  await deliverTidings(db, config, tidings);
  return "settled_outside";
}
