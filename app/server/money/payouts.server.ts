// Payouts to doctors (docs/decisions/0028). A payout run moves each doctor's available balance (what
// released escrow made theirs) above a minimum to their payout account: the payout row and the ledger
// entry that puts the amount in transit are written in one batch, which refuses an amount above the
// balance as the batch runs and a second payout while one is in flight; only then is the provider asked
// for the transfer, under our own unique reference. Its webhook, or the job's later check, settles it:
// paid, the money leaves our books; failed, it returns to what the doctor is owed, and they are told why.
import { and, type AnyColumn, eq, isNull, lt, lte, or, sql } from "drizzle-orm";

import { doctorPayoutAccounts, doctors, ledgerLines, payouts } from "~/db/schema";
import { payoutReturned, payoutSettled, payoutStarted } from "~/domain/ledger";
import { birrText, santimFromSum } from "~/domain/money";
import { MIN_PAYOUT_SANTIM, newPayoutReference, PAYOUT_ACCOUNT_HOLD_MS, PAYOUTS_PER_RUN } from "~/domain/payouts";
import { auditIfChanged } from "~/server/audit.server";
import { createDatabase, type Database } from "~/server/db/client.server";
import { insertWhere } from "~/server/db/insert-where.server";
import type { AppConfig } from "~/server/env.server";
import { moneyEmail } from "~/server/mail/money-emails.server";
import { paymentProvider } from "~/server/payments/provider.server";

import { ledgerEntryStatements } from "./ledger.server";
import { deliverTidings, tidingsFor, tidingsStatements } from "./money-tidings.server";

/** The weekly run pays a doctor whose last payout is at least this old. */
const PAYOUT_INTERVAL_MS = 7 * 24 * 60 * 60_000;
/** How long after the provider took a transfer the job asks about it, should its webhook not come. */
const CHECK_AFTER_MS = 30 * 60_000;
/** Times a transfer the provider could not be reached for is asked again before it is failed. */
const MAX_PAYOUT_ATTEMPTS = 6;
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
  // A failed payout does not count: its money is back, and goes out with the next run.
  const recentlyPaid = sql`EXISTS (SELECT 1 FROM ${payouts} WHERE ${payouts.doctorId} = ${doctorPayoutAccounts.doctorId} AND ${payouts.status} <> 'failed' AND ${payouts.createdAt} > ${now.getTime() - PAYOUT_INTERVAL_MS})`;
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

export type PayoutProgress = "settled" | "failed" | "accepted" | "waiting" | "not_pending";

/** Asks the provider for the transfer (or, if it was asked before, what became of it). Claimed first, so it is asked once. */
async function attemptPayout(env: Env, config: AppConfig, payoutId: string, now: Date): Promise<PayoutProgress> {
  const db = createDatabase(env.DB);
  const payout = await db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout || payout.status !== "pending") return "not_pending";
  if (payout.accepted || payout.attempts > 0) {
    const progress = await settlePayout(env, config, payout.reference, now);
    if (progress !== "waiting" || payout.accepted) return progress;
  }
  const claimed = await db
    .update(payouts)
    .set({ attempts: sql`${payouts.attempts} + 1`, updatedAt: now })
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, "pending"), eq(payouts.accepted, false), eq(payouts.attempts, payout.attempts)))
    .returning({ attempts: payouts.attempts });
  if (claimed.length === 0) return "waiting";
  const provider = paymentProvider(config, env, config.siteOrigin);
  const outcome = await provider.transfer({
    reference: payout.reference,
    amountSantim: payout.amountSantim,
    bankCode: payout.bankCode,
    accountName: payout.accountName,
    accountNumber: payout.accountNumber,
  });
  if (outcome.kind === "accepted") {
    await db
      .update(payouts)
      .set({ accepted: true, providerReference: outcome.providerReference, lastCheckedAt: now, updatedAt: now })
      .where(and(eq(payouts.id, payoutId), eq(payouts.status, "pending")));
    return "accepted";
  }
  // A definite no (a wrong account) fails at once; a provider out of reach is asked again, then failed.
  if (outcome.kind === "refused" || claimed[0]!.attempts >= MAX_PAYOUT_ATTEMPTS) {
    await failPayout(db, config, payout, outcome.message, now);
    return "failed";
  }
  await db
    .update(payouts)
    .set({ failureReason: outcome.message.slice(0, 500), updatedAt: now })
    .where(eq(payouts.id, payoutId));
  return "waiting";
}

/** Settles a pending payout by what the provider says of it now (after its webhook, or from the job). */
export async function settlePayout(env: Env, config: AppConfig, reference: string, now: Date): Promise<PayoutProgress> {
  const db = createDatabase(env.DB);
  const payout = await db.query.payouts.findFirst({ where: eq(payouts.reference, reference) });
  if (!payout || payout.status !== "pending") return "not_pending";
  const verified = await paymentProvider(config, env, config.siteOrigin).verifyTransfer(reference);
  await db.update(payouts).set({ lastCheckedAt: now }).where(eq(payouts.id, payout.id));
  if (!verified || verified.status === "unknown" || verified.status === "pending") {
    if (verified?.status === "pending")
      await db
        .update(payouts)
        .set({ accepted: true })
        .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending")));
    return verified?.status === "pending" ? "accepted" : "waiting";
  }
  if (verified.status === "failed") {
    await failPayout(db, config, payout, verified.failureReason ?? verified.providerStatus, now);
    return "failed";
  }
  if (verified.amountSantim !== null && verified.amountSantim !== payout.amountSantim) {
    await db
      .update(payouts)
      .set({
        failureReason: `The provider sent ${birrText(verified.amountSantim)} ETB, not ${birrText(payout.amountSantim)} ETB`,
        updatedAt: now,
      })
      .where(eq(payouts.id, payout.id));
    return "waiting";
  }
  await finishPayout(db, config, payout, "succeeded", null, now);
  return "settled";
}

async function failPayout(db: Database, config: AppConfig, payout: PayoutRow, reason: string, now: Date) {
  await finishPayout(db, config, payout, "failed", reason.slice(0, 500), now);
}

/** A payout settled either way, once: its ledger entry, its audit entry, and the doctor told. */
async function finishPayout(
  db: Database,
  config: AppConfig,
  payout: PayoutRow,
  status: "succeeded" | "failed",
  reason: string | null,
  now: Date,
) {
  // Stamped by this call's update alone: two settlements in the same millisecond cannot both pass.
  const changeId = crypto.randomUUID();
  const finishedByThisCall = and(eq(payouts.id, payout.id), eq(payouts.lastChangeId, changeId));
  const onlyIfFinished = sql`EXISTS (SELECT 1 FROM ${payouts} WHERE ${finishedByThisCall})`;
  const values = {
    amount: birrText(payout.amountSantim),
    bank: payout.bankName,
    last4: payout.accountNumber.slice(-4),
    reference: payout.reference,
    reason: reason ?? "",
  };
  const told = await tidingsFor(
    db,
    payout.doctorId,
    { kind: status === "succeeded" ? "payout_paid" : "payout_failed", consultationId: null, link: EARNINGS_LINK },
    (t, to) =>
      moneyEmail(
        t,
        to,
        status === "succeeded" ? "payoutPaid" : "payoutFailed",
        values,
        `${config.siteOrigin}${status === "succeeded" ? EARNINGS_LINK : "/doctor/profile/payout"}`,
      ),
  );
  const tidings = tidingsStatements(db, [told], now, onlyIfFinished);
  const entry = { reference: payout.reference, doctorId: payout.doctorId, amountSantim: payout.amountSantim };
  await db.batch([
    db
      .update(payouts)
      .set({ status, failureReason: reason, accepted: true, settledAt: now, lastChangeId: changeId, updatedAt: now })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending"))),
    ...ledgerEntryStatements(db, status === "succeeded" ? payoutSettled(entry) : payoutReturned(entry), now, onlyIfFinished),
    auditIfChanged(db, payouts, finishedByThisCall, {
      action: status === "succeeded" ? "payout.settled" : "payout.failed",
      actorId: null,
      targetType: "user",
      targetId: payouts.doctorId,
      ipAddress: null,
      details: sql<string>`json_object('reference', ${payouts.reference}, 'amountSantim', ${payouts.amountSantim}, 'reason', ${payouts.failureReason})`,
      now,
    }),
    ...tidings.statements,
  ]);
  await deliverTidings(db, config, tidings.mailIds);
}

/** The job: pending payouts due a check (taken over 30 minutes ago and not asked since, or never taken) moved on. */
export async function movePayoutsOn(env: Env, config: AppConfig, now: Date) {
  const db = createDatabase(env.DB);
  const due = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.status, "pending"),
        or(
          eq(payouts.accepted, false),
          isNull(payouts.lastCheckedAt),
          lte(payouts.lastCheckedAt, new Date(now.getTime() - CHECK_AFTER_MS)),
        ),
        lt(payouts.createdAt, new Date(now.getTime() - 60_000)),
      ),
    )
    .limit(50);
  const progress: Record<PayoutProgress, number> = { settled: 0, failed: 0, accepted: 0, waiting: 0, not_pending: 0 };
  for (const { id } of due) progress[await attemptPayout(env, config, id, now)] += 1;
  return progress;
}
