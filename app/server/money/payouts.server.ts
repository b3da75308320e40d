// Payouts to doctors (docs/decisions/0028). A payout run moves each doctor's available balance (what
// released escrow made theirs) above a minimum to their payout account: the payout row and the ledger
// entry that puts the amount in transit are written in one batch, which refuses an amount above the
// balance as the batch runs and a second payout while one is in flight; only then is the provider asked
// for the transfer, under our own unique reference. Its webhook, or the job's later check, settles it:
// paid, the money leaves our books; failed, it returns to what the doctor is owed, and they are told why.
import { and, type AnyColumn, eq, isNull, lt, lte, or, sql } from "drizzle-orm";

import { doctorPayoutAccounts, doctors, ledgerLines, payouts } from "~/db/schema";
import { madeOutside, payoutReturned, payoutSettled, payoutStarted, transferFeeCharged } from "~/domain/ledger";
import { birrText, santimFromSum } from "~/domain/money";
import {
  amountMismatchReason,
  insideTransferHours,
  MAX_PAYOUT_ASKS,
  MIN_PAYOUT_SANTIM,
  newPayoutReference,
  PAYOUT_ACCOUNT_HOLD_MS,
  PAYOUT_MOVES,
  PAYOUTS_PER_RUN,
} from "~/domain/payouts";
import { stuckReasonAfter } from "~/domain/refunds";
import { auditIfChanged } from "~/server/audit.server";
import { createDatabase, type Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";
import type { AppConfig } from "~/server/env.server";
import { moneyEmail } from "~/server/mail/money-emails.server";
import { paymentProvider } from "~/server/payments/provider.server";
import { deliverTidings, tidingsFor, tidingsStatements } from "~/server/tidings.server";

import { ledgerEntryStatements } from "./ledger.server";

/** The weekly run pays a doctor whose last payout is at least this old. */
const PAYOUT_INTERVAL_MS = 7 * 24 * 60 * 60_000;
/** How long after the provider took a transfer the job asks about it, should its webhook not come. */
const CHECK_AFTER_MS = 30 * 60_000;
const MAX_REASON_CHARS = 500;
const EARNINGS_LINK = "/doctor/earnings";

type PayoutRow = typeof payouts.$inferSelect;

/** What a doctor is owed now, in santim, as SQL (doctor_payable holds it as a credit); `doctorId` may be a column. */
const availableSql = (doctorId: string | AnyColumn) =>
  sql<number>`(SELECT -coalesce(sum(${ledgerLines.amountSantim}), 0) FROM ${ledgerLines} WHERE ${ledgerLines.account} = 'doctor_payable' AND ${ledgerLines.subject} = ${doctorId})`;

/**
 * A payout account held at `now`: changed after it was first set (`updatedAt` later than `createdAt`),
 * less than 48 hours ago (the domain's `payoutHoldEndsAt`, as SQL). No run pays to it until then.
 */
export const payoutAccountHeld = (now: Date) =>
  sql`(${doctorPayoutAccounts.updatedAt} > ${doctorPayoutAccounts.createdAt} AND ${doctorPayoutAccounts.updatedAt} > ${now.getTime() - PAYOUT_ACCOUNT_HOLD_MS})`;

export interface PayoutRunReport {
  /** Doctors whose balance was sent. */
  sent: number;
  settled: number;
  failed: number;
  /** Doctors still due when the run stopped at its size (PAYOUTS_PER_RUN): the next run pays them. */
  moreDue: boolean;
  /** The scheduled run sent nothing: outside the provider's transfer hours. */
  outsideHours?: boolean;
}

/**
 * A payout run: doctors with a payout account not held after a change and an available balance of at
 * least the minimum (deactivated ones too: what was released to them is theirs, and the payout's email
 * tells them)
 * (weekly by the job: only those not paid in the last week; by an admin: any of them now), at most
 * PAYOUTS_PER_RUN of them; the report says when more are due.
 * Safe to run twice at once: the second finds each payout in flight, or the balance gone.
 */
export async function runPayouts(env: Env, config: AppConfig, now: Date, by: { adminId: string } | "schedule"): Promise<PayoutRunReport> {
  const db = createDatabase(env.DB);
  // A failed payout counts too: its money is back, and goes with the next weekly run (or an admin's), not
  // every quarter of an hour with an email each time.
  const recentlyPaid = sql`EXISTS (SELECT 1 FROM ${payouts} WHERE ${payouts.doctorId} = ${doctorPayoutAccounts.doctorId} AND ${payouts.createdAt} > ${now.getTime() - PAYOUT_INTERVAL_MS})`;
  // The provider refuses transfers outside its hours: the scheduled run waits for them (an admin may try).
  if (by === "schedule" && !insideTransferHours(now)) return { sent: 0, settled: 0, failed: 0, moreDue: false, outsideHours: true };
  const due = await db
    .select({ account: doctorPayoutAccounts })
    .from(doctorPayoutAccounts)
    .innerJoin(doctors, eq(doctors.userId, doctorPayoutAccounts.doctorId))
    .where(
      and(
        sql`${availableSql(doctorPayoutAccounts.doctorId)} >= ${MIN_PAYOUT_SANTIM}`,
        sql`NOT ${payoutAccountHeld(now)}`,
        by === "schedule" ? sql`NOT ${recentlyPaid}` : undefined,
      ),
    )
    .orderBy(doctorPayoutAccounts.doctorId)
    .limit(PAYOUTS_PER_RUN + 1);
  const report: PayoutRunReport = { sent: 0, settled: 0, failed: 0, moreDue: due.length > PAYOUTS_PER_RUN };
  for (const { account } of due.slice(0, PAYOUTS_PER_RUN)) {
    const available = await availableTo(db, account.doctorId);
    if (available < MIN_PAYOUT_SANTIM) continue;
    const payoutId = await recordPayout(db, account, available, by === "schedule" ? null : by.adminId, now);
    if (!payoutId) continue;
    report.sent += 1;
    await attemptPayout(env, config, payoutId, now);
    // What became of it by now, however it was settled (the provider's answer, or its webhook meanwhile).
    const settled = await db.query.payouts.findFirst({ where: eq(payouts.id, payoutId), columns: { status: true } });
    if (settled?.status === "succeeded") report.settled += 1;
    if (settled?.status === "failed") report.failed += 1;
  }
  return report;
}

/** What `doctorId` is owed now (released to them, not yet paid out), in santim. */
async function availableTo(db: Database, doctorId: string): Promise<number> {
  const row = await db.get<{ available: number | null }>(sql`SELECT ${availableSql(doctorId)} AS available`);
  return santimFromSum(row?.available);
}

/** The payout row and its ledger entry in one batch: none if one is in flight, or the balance is no longer there. */
async function recordPayout(
  db: Database,
  account: typeof doctorPayoutAccounts.$inferSelect,
  amountSantim: number,
  requestedBy: string | null,
  now: Date,
) {
  const id = crypto.randomUUID();
  const reference = newPayoutReference();
  const stillOwed = sql`${availableSql(account.doctorId)} >= ${amountSantim}`;
  const recorded = sql`EXISTS (SELECT 1 FROM ${payouts} WHERE ${payouts.id} = ${id})`;
  await db.batch([
    insertWhere(
      db,
      payouts,
      {
        id,
        doctorId: account.doctorId,
        reference,
        amountSantim,
        bankCode: account.bankCode,
        bankName: account.bankName,
        accountName: account.accountName,
        accountNumber: account.accountNumber,
        status: "pending",
        requestedBy,
        createdAt: now,
        updatedAt: now,
      },
      stillOwed,
    ),
    ...ledgerEntryStatements(db, payoutStarted({ reference, doctorId: account.doctorId, amountSantim }), now, recorded),
    auditIfChanged(db, payouts, eq(payouts.id, id), {
      action: "payout.sent",
      actorId: requestedBy,
      targetType: "user",
      targetId: payouts.doctorId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${payouts.reference}, 'amountSantim', ${payouts.amountSantim})`,
      now,
    }),
  ]);
  return (await db.query.payouts.findFirst({ where: eq(payouts.id, id), columns: { id: true } })) ? id : null;
}

/**
 * Where a payout stands after one step: settled or failed (by a verify); taken by the provider and not yet
 * settled; waiting (the provider could not be asked, or gave no answer we can act on); before an admin;
 * or not pending any more.
 */
export type PayoutProgress = "settled" | "failed" | "accepted" | "waiting" | "review" | "not_pending";

/**
 * Moves a pending payout on: asks the provider what became of it when it was asked before (a request
 * whose answer was lost may have been taken), and sends it under its reference when the provider plainly
 * has none. It is failed only when a verify says failed, or says there is no transfer after the provider
 * refused it; after MAX_PAYOUT_ASKS asks without a decision it waits for an admin, never back to the
 * balance. Claimed first by a conditional update, so two callers at once send once. `force`: an admin
 * asked, so a payout before an admin is asked again too.
 */
async function attemptPayout(env: Env, config: AppConfig, payoutId: string, now: Date, { force = false } = {}): Promise<PayoutProgress> {
  const db = createDatabase(env.DB);
  const payout = await db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout || payout.status !== "pending" || payout.channel !== "provider") return "not_pending";
  if (payout.reviewReason && !force) return "review";
  const claimed = await db
    .update(payouts)
    .set({ attempts: sql`${payouts.attempts} + 1`, reviewReason: null, lastCheckedAt: now, updatedAt: now })
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, "pending"), eq(payouts.attempts, payout.attempts)))
    .returning({ attempts: payouts.attempts });
  if (claimed.length === 0) return "waiting";
  const asks = force ? 1 : claimed[0]!.attempts;
  if (payout.accepted || payout.attempts > 0) {
    const known = await settlePayout(env, config, payout.reference, now);
    if (known === "settled" || known === "failed" || known === "not_pending") return known;
    // Taken (or the provider cannot say): not sent again; asked about until an admin must decide.
    if (known !== "not_found" || payout.accepted) return stuckAfter(db, payout, asks, known === "unknown", now);
  }
  const outcome = await paymentProvider(config, env, config.siteOrigin).transfer({
    reference: payout.reference,
    amountSantim: payout.amountSantim,
    bankCode: payout.bankCode,
    accountName: payout.accountName,
    accountNumber: payout.accountNumber,
  });
  if (outcome.kind === "accepted" || outcome.kind === "reference_used") {
    await db
      .update(payouts)
      .set({
        accepted: true,
        providerReference: outcome.kind === "accepted" ? outcome.providerReference : payout.providerReference,
        updatedAt: now,
      })
      .where(and(eq(payouts.id, payoutId), eq(payouts.status, "pending")));
    return "accepted";
  }
  await notePayout(db, payout.id, outcome.message, now);
  if (outcome.kind === "refused") {
    // A refusal is not yet a failure: only the provider's word that it has no such transfer makes it one.
    const known = await settlePayout(env, config, payout.reference, now, outcome.message);
    if (known !== "not_found" && known !== "waiting" && known !== "unknown") return known === "review" ? "review" : known;
  }
  return stuckAfter(db, payout, asks, false, now);
}

/** After `asks` asks with no decision: before an admin once they reach MAX_PAYOUT_ASKS (stuckReasonAfter), else waiting for the next. */
async function stuckAfter(db: Database, payout: PayoutRow, asks: number, unknownStatus: boolean, now: Date): Promise<PayoutProgress> {
  const reviewReason = stuckReasonAfter(asks, MAX_PAYOUT_ASKS, unknownStatus);
  if (!reviewReason) return "waiting";
  await db
    .update(payouts)
    .set({ reviewReason, updatedAt: now })
    .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending")));
  return "review";
}

async function notePayout(db: Database, payoutId: string, message: string, now: Date) {
  await db
    .update(payouts)
    .set({ failureReason: message.slice(0, MAX_REASON_CHARS), updatedAt: now })
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, "pending")));
}

/**
 * Settles a pending payout by what the provider says of it now (after its webhook, from the job, or for
 * an admin): success settles it (with the provider's fee), failed fails it; `refusal`, when the provider
 * has just refused to send it, fails it also if the provider has no such transfer. Anything else leaves
 * it pending: `not_found` (nothing taken: it may be sent), `unknown` (a word we do not know), `accepted`
 * (taken, under way), or `waiting` (the provider could not be asked).
 */
export async function settlePayout(
  env: Env,
  config: AppConfig,
  reference: string,
  now: Date,
  refusal?: string,
): Promise<PayoutProgress | "not_found" | "unknown"> {
  const db = createDatabase(env.DB);
  const payout = await db.query.payouts.findFirst({ where: eq(payouts.reference, reference) });
  if (!payout || payout.status !== "pending" || payout.channel !== "provider") return "not_pending";
  const verified = await paymentProvider(config, env, config.siteOrigin).verifyTransfer(reference);
  if (!verified) return "waiting";
  if (verified.status === "not_found") {
    if (refusal === undefined || payout.accepted) return "not_found";
    await finishPayout(db, config, payout, { status: "failed", reason: refusal, feeSantim: null }, now);
    return "failed";
  }
  if (verified.status === "failed") {
    await finishPayout(
      db,
      config,
      payout,
      { status: "failed", reason: verified.failureReason ?? verified.providerStatus, feeSantim: null },
      now,
    );
    return "failed";
  }
  await db
    .update(payouts)
    .set({ accepted: true, updatedAt: now })
    .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending")));
  if (verified.status === "pending") return "accepted";
  if (verified.status === "unknown") {
    await notePayout(db, payout.id, `The provider says "${verified.providerStatus}"`, now);
    return "unknown";
  }
  if (verified.amountSantim !== null && verified.amountSantim !== payout.amountSantim) {
    // Sent, but not what we asked: kept pending before an admin, never settled on a guess.
    await db
      .update(payouts)
      .set({
        reviewReason: "amount_differs",
        failureReason: amountMismatchReason(verified.amountSantim, payout.amountSantim),
        updatedAt: now,
      })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending")));
    return "review";
  }
  await finishPayout(db, config, payout, { status: "succeeded", reason: null, feeSantim: verified.feeSantim }, now);
  return "settled";
}

interface PayoutEnd {
  status: "succeeded" | "failed";
  reason: string | null;
  /** The provider's charge on a transfer that went out, booked with it. */
  feeSantim: number | null;
  /** Made outside the provider by an admin (with their reason in `note`). */
  outside?: { adminId: string; note: string };
  /** The admin who failed it once the provider confirmed. */
  failedBy?: string;
}

/**
 * The one writer of a payout's end (PAYOUT_MOVES: pending to succeeded or failed), once: its ledger
 * entries (settled to the provider or paid outside, the provider's fee, or the money back to the
 * doctor's payable), its audit entry and the doctor told, in one batch.
 */
async function finishPayout(db: Database, config: AppConfig, payout: PayoutRow, end: PayoutEnd, now: Date) {
  if (!PAYOUT_MOVES[payout.status].includes(end.status)) return;
  // Stamped by this call's update alone: two settlements in the same millisecond cannot both pass.
  const changeId = crypto.randomUUID();
  const finishedByThisCall = and(eq(payouts.id, payout.id), eq(payouts.lastChangeId, changeId));
  const onlyIfFinished = sql`EXISTS (SELECT 1 FROM ${payouts} WHERE ${finishedByThisCall})`;
  const succeeded = end.status === "succeeded";
  const values = {
    amount: birrText(payout.amountSantim),
    bank: payout.bankName,
    last4: payout.accountNumber.slice(-4),
    reference: payout.reference,
    reason: end.reason ?? "",
  };
  const told = await tidingsFor(
    db,
    payout.doctorId,
    { kind: succeeded ? "payout_paid" : "payout_failed", consultationId: null, link: EARNINGS_LINK },
    (t, to) =>
      moneyEmail(
        t,
        to,
        succeeded ? "payoutPaid" : "payoutFailed",
        values,
        `${config.siteOrigin}${succeeded ? EARNINGS_LINK : "/doctor/profile/payout"}`,
      ),
  );
  const tidings = tidingsStatements(db, [told], now, onlyIfFinished);
  const entry = { reference: payout.reference, doctorId: payout.doctorId, amountSantim: payout.amountSantim };
  const fee = succeeded && !end.outside && end.feeSantim ? end.feeSantim : null;
  const entries = succeeded
    ? [
        end.outside ? madeOutside({ from: "payouts_in_transit", ...entry }) : payoutSettled(entry),
        ...(fee ? [transferFeeCharged({ ...entry, feeSantim: fee })] : []),
      ]
    : [payoutReturned(entry)];
  await db.batch([
    db
      .update(payouts)
      .set({
        status: end.status,
        failureReason: end.reason?.slice(0, MAX_REASON_CHARS) ?? null,
        reviewReason: null,
        feeSantim: fee,
        channel: end.outside ? "outside" : "provider",
        note: end.outside?.note ?? null,
        settledAt: now,
        lastChangeId: changeId,
        updatedAt: now,
      })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending"))),
    ...entries.flatMap((planned) => ledgerEntryStatements(db, planned, now, onlyIfFinished)),
    auditIfChanged(db, payouts, finishedByThisCall, {
      action: end.outside ? "payout.settled_outside" : succeeded ? "payout.settled" : "payout.failed",
      actorId: end.outside?.adminId ?? end.failedBy ?? null,
      targetType: "user",
      targetId: payouts.doctorId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${payouts.reference}, 'amountSantim', ${payouts.amountSantim}, 'reason', ${payouts.failureReason}, 'note', ${payouts.note}, 'feeSantim', ${payouts.feeSantim})`,
      now,
    }),
    ...tidings.statements,
  ]);
  await deliverTidings(db, config, tidings);
}

/**
 * The job: pending payouts due a step (never taken, or taken and not asked about for half an hour), not
 * before an admin, moved on.
 */
export async function movePayoutsOn(env: Env, config: AppConfig, now: Date) {
  const db = createDatabase(env.DB);
  const due = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.status, "pending"),
        eq(payouts.channel, "provider"),
        isNull(payouts.reviewReason),
        or(
          eq(payouts.accepted, false),
          isNull(payouts.lastCheckedAt),
          lte(payouts.lastCheckedAt, new Date(now.getTime() - CHECK_AFTER_MS)),
        ),
        lt(payouts.createdAt, new Date(now.getTime() - 60_000)),
      ),
    )
    .limit(50);
  const progress: Record<PayoutProgress, number> = { settled: 0, failed: 0, accepted: 0, waiting: 0, review: 0, not_pending: 0 };
  for (const { id } of due) progress[await attemptPayout(env, config, id, now)] += 1;
  return progress;
}

export type PayoutDecision = "asked" | "settled_outside" | "failed" | "not_confirmed" | "not_pending";

/**
 * An admin's decision on a payout still pending (one before them, or any not settled): ask the provider
 * again; record it made outside the provider, with their reason; or fail it, which only a verify that
 * says failed (or that the provider has no such transfer, for one it never took) allows.
 */
export async function decidePayout(
  env: Env,
  config: AppConfig,
  adminId: string,
  payoutId: string,
  decision: { kind: "ask_again" } | { kind: "settled_outside"; note: string } | { kind: "fail" },
  now: Date,
): Promise<{ outcome: PayoutDecision; providerSays?: string }> {
  const db = createDatabase(env.DB);
  const payout = await db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout || payout.status !== "pending") return { outcome: "not_pending" };
  if (decision.kind === "ask_again") {
    const progress = await attemptPayout(env, config, payoutId, now, { force: true });
    return { outcome: progress === "not_pending" ? "not_pending" : "asked" };
  }
  if (decision.kind === "settled_outside") {
    await finishPayout(
      db,
      config,
      payout,
      { status: "succeeded", reason: null, feeSantim: null, outside: { adminId, note: decision.note } },
      now,
    );
    const after = await db.query.payouts.findFirst({ where: eq(payouts.id, payoutId), columns: { channel: true, status: true } });
    return { outcome: after?.status === "succeeded" && after.channel === "outside" ? "settled_outside" : "not_pending" };
  }
  const verified = await paymentProvider(config, env, config.siteOrigin).verifyTransfer(payout.reference);
  const confirmsFailure = verified?.status === "failed" || (verified?.status === "not_found" && !payout.accepted);
  if (!verified || !confirmsFailure) return { outcome: "not_confirmed", providerSays: verified?.providerStatus ?? "" };
  await finishPayout(
    db,
    config,
    payout,
    { status: "failed", reason: verified.failureReason ?? verified.providerStatus, feeSantim: null, failedBy: adminId },
    now,
  );
  return { outcome: "failed" };
}

/**
 * The provider's fee on a transfer that went out, found after it settled (by reconciliation): recorded on
 * the payout and booked once, in one batch.
 */
export async function bookTransferFee(db: Database, payout: PayoutRow, feeSantim: number, now: Date) {
  if (!Number.isSafeInteger(feeSantim) || feeSantim <= 0) return;
  const changeId = crypto.randomUUID();
  const bookedByThisCall = sql`EXISTS (SELECT 1 FROM ${payouts} WHERE ${payouts.id} = ${payout.id} AND ${payouts.lastChangeId} = ${changeId})`;
  await db.batch([
    db
      .update(payouts)
      .set({ feeSantim, lastChangeId: changeId, updatedAt: now })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, "succeeded"), isNull(payouts.feeSantim))),
    ...ledgerEntryStatements(
      db,
      transferFeeCharged({ reference: payout.reference, doctorId: payout.doctorId, feeSantim }),
      now,
      bookedByThisCall,
    ),
  ]);
}
