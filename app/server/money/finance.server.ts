// The books as the admins and the accountant read them (docs/decisions/0028): every account's balance
// and their sum (zero, or something is wrong), the money in flight (refunds and payouts not settled,
// and those that failed), and the whole journal for a spreadsheet. Everything is summed from the
// ledger's lines; nothing here writes.
import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";

import {
  consultations,
  disputes,
  doctorPayoutAccounts,
  doctors,
  escrows,
  ledgerEntries,
  ledgerLines,
  payouts,
  profiles,
  refunds,
} from "~/db/schema";
import { LEDGER_ACCOUNTS, type LedgerAccount } from "~/domain/ledger";
import { santimFromSum } from "~/domain/money";
import { PAYOUT_ACCOUNT_HOLD_MS } from "~/domain/payouts";
import type { Database } from "~/server/db/client.server";

import { payoutAccountHeld } from "./payouts.server";

export interface Books {
  /** Each account's balance in santim (debit positive, credit negative), every account listed. */
  balances: Record<LedgerAccount, number>;
  /** The sum of every line ever written: zero in books that balance. */
  totalSantim: number;
  /** Entries whose own lines do not sum to zero (none, in books that balance). */
  unbalancedEntries: number;
}

export async function books(db: Database): Promise<Books> {
  const [rows, [unbalanced]] = await Promise.all([
    db
      .select({ account: ledgerLines.account, total: sql<number>`sum(${ledgerLines.amountSantim})` })
      .from(ledgerLines)
      .groupBy(ledgerLines.account),
    db.all<{ entries: number }>(
      sql`SELECT count(*) AS entries FROM (SELECT ${ledgerLines.entryId} FROM ${ledgerLines} GROUP BY ${ledgerLines.entryId} HAVING sum(${ledgerLines.amountSantim}) <> 0)`,
    ),
  ]);
  const balances = Object.fromEntries(LEDGER_ACCOUNTS.map((account) => [account, 0])) as Record<LedgerAccount, number>;
  for (const row of rows) balances[row.account] = santimFromSum(row.total);
  return {
    balances,
    totalSantim: Object.values(balances).reduce((sum, balance) => sum + balance, 0),
    unbalancedEntries: Number(unbalanced?.entries ?? 0),
  };
}

/** Consultations whose money waits on an admin: disputes open, and paid consultations sent to review (oldest first). */
export async function waitingOnAdmins(db: Database) {
  const [[open], inReview] = await Promise.all([
    db
      .select({ count: sql<number>`count(*)` })
      .from(disputes)
      .where(eq(disputes.status, "open")),
    db
      .select({ consultationId: escrows.consultationId, title: consultations.title, since: escrows.updatedAt })
      .from(escrows)
      .innerJoin(consultations, eq(consultations.id, escrows.consultationId))
      .where(eq(escrows.status, "in_review"))
      .orderBy(asc(escrows.updatedAt))
      .limit(100),
  ]);
  return { openDisputes: Number(open?.count ?? 0), inReview };
}

/** How far back settled failures are still shown beside what is in flight. */
const FAILED_SHOWN_MS = 30 * 24 * 60 * 60_000;

/** Refunds not settled (pending at the provider), and those that failed with nothing done since (until an admin does), oldest first. */
export async function refundsInFlight(db: Database, now: Date, limit = 100) {
  return db
    .select({
      id: refunds.id,
      reference: refunds.reference,
      consultationId: refunds.consultationId,
      consultationTitle: consultations.title,
      amountSantim: refunds.amountSantim,
      reason: refunds.reason,
      status: refunds.status,
      accepted: refunds.accepted,
      attempts: refunds.attempts,
      lastError: refunds.lastError,
      reviewReason: refunds.reviewReason,
      createdAt: refunds.createdAt,
      // A newer refund of the same payment (retried, or made outside) supersedes a failed one.
      superseded: sql<number>`EXISTS (SELECT 1 FROM ${refunds} AS later WHERE later.payment_id = ${refunds.paymentId} AND later.created_at > ${refunds.createdAt})`,
    })
    .from(refunds)
    .innerJoin(consultations, eq(consultations.id, refunds.consultationId))
    .where(
      and(
        eq(refunds.channel, "provider"),
        or(
          eq(refunds.status, "pending"),
          and(
            eq(refunds.status, "failed"),
            or(
              gt(refunds.updatedAt, new Date(now.getTime() - FAILED_SHOWN_MS)),
              sql`NOT EXISTS (SELECT 1 FROM ${refunds} AS later WHERE later.payment_id = ${refunds.paymentId} AND later.created_at > ${refunds.createdAt})`,
            ),
          ),
        ),
      ),
    )
    .orderBy(asc(refunds.createdAt))
    .limit(limit);
}

/** Payouts not settled and those that failed in the last 30 days, oldest first, with the doctor's name. */
export async function payoutsInFlight(db: Database, now: Date, limit = 100) {
  return db
    .select({
      id: payouts.id,
      reference: payouts.reference,
      doctorId: payouts.doctorId,
      doctorFirstName: profiles.firstName,
      doctorLastName: profiles.lastName,
      amountSantim: payouts.amountSantim,
      bankName: payouts.bankName,
      status: payouts.status,
      accepted: payouts.accepted,
      failureReason: payouts.failureReason,
      reviewReason: payouts.reviewReason,
      createdAt: payouts.createdAt,
    })
    .from(payouts)
    .leftJoin(profiles, eq(profiles.userId, payouts.doctorId))
    .where(
      or(
        eq(payouts.status, "pending"),
        and(eq(payouts.status, "failed"), gt(payouts.updatedAt, new Date(now.getTime() - FAILED_SHOWN_MS))),
      ),
    )
    .orderBy(asc(payouts.createdAt))
    .limit(limit);
}

/**
 * Doctors owed money (released to them, not sent) that no payout run can send: deactivated (paid once
 * their payout details are valid, though they cannot sign in to add them) or without payout details;
 * most owed first.
 */
export async function owedButUnpaid(db: Database, limit = 100) {
  const owed = sql<number>`-sum(${ledgerLines.amountSantim})`;
  const rows = await db
    .select({
      doctorId: doctors.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      deactivated: sql<number>`${doctors.status} <> 'active'`,
      hasPayoutDetails: sql<number>`${doctorPayoutAccounts.doctorId} IS NOT NULL`,
      owedSantim: owed,
    })
    .from(ledgerLines)
    .innerJoin(doctors, eq(doctors.userId, ledgerLines.subject))
    .leftJoin(profiles, eq(profiles.userId, doctors.userId))
    .leftJoin(doctorPayoutAccounts, eq(doctorPayoutAccounts.doctorId, doctors.userId))
    .where(and(eq(ledgerLines.account, "doctor_payable"), or(ne(doctors.status, "active"), isNull(doctorPayoutAccounts.doctorId))))
    .groupBy(doctors.userId)
    .having(sql`${owed} > 0`)
    .orderBy(desc(owed))
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    deactivated: Boolean(row.deactivated),
    hasPayoutDetails: Boolean(row.hasPayoutDetails),
    owedSantim: santimFromSum(row.owedSantim),
  }));
}

/** Payout accounts changed less than 48 hours ago, with the doctor's name and when payouts to them start; soonest first. */
export async function payoutAccountsOnHold(db: Database, now: Date, limit = 100) {
  const rows = await db
    .select({
      doctorId: doctorPayoutAccounts.doctorId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      bankName: doctorPayoutAccounts.bankName,
      accountNumber: doctorPayoutAccounts.accountNumber,
      changedAt: doctorPayoutAccounts.updatedAt,
    })
    .from(doctorPayoutAccounts)
    .leftJoin(profiles, eq(profiles.userId, doctorPayoutAccounts.doctorId))
    .where(payoutAccountHeld(now))
    .orderBy(asc(doctorPayoutAccounts.updatedAt))
    .limit(limit);
  return rows.map((row) => ({ ...row, startsAt: new Date(row.changedAt.getTime() + PAYOUT_ACCOUNT_HOLD_MS) }));
}

/** The latest payouts that reached doctors, newest first. */
export async function recentPayouts(db: Database, limit = 20) {
  return db
    .select({
      reference: payouts.reference,
      doctorFirstName: profiles.firstName,
      doctorLastName: profiles.lastName,
      amountSantim: payouts.amountSantim,
      settledAt: payouts.settledAt,
    })
    .from(payouts)
    .leftJoin(profiles, eq(profiles.userId, payouts.doctorId))
    .where(inArray(payouts.status, ["succeeded"]))
    .orderBy(desc(payouts.settledAt))
    .limit(limit);
}

/** Lines of the journal the CSV reads a page at a time (the journal only grows). */
const JOURNAL_PAGE = 2_000;

interface JournalLine {
  entryId: string;
  at: Date;
  key: string;
  kind: string;
  consultationId: string | null;
  doctorId: string | null;
  paymentId: string | null;
  lineId: string;
  account: LedgerAccount;
  subject: string;
  amountSantim: number;
}

/** Every line of the journal with its entry, oldest first, in pages, for the accountant's CSV. */
export async function* journalLines(db: Database) {
  let after: { createdAt: number; entryId: string; lineId: string } | null = null;
  for (;;) {
    const page: JournalLine[] = await db
      .select({
        entryId: ledgerEntries.id,
        at: ledgerEntries.createdAt,
        key: ledgerEntries.idempotencyKey,
        kind: ledgerEntries.kind,
        consultationId: ledgerEntries.consultationId,
        doctorId: ledgerEntries.doctorId,
        paymentId: ledgerEntries.paymentId,
        lineId: ledgerLines.id,
        account: ledgerLines.account,
        subject: ledgerLines.subject,
        amountSantim: ledgerLines.amountSantim,
      })
      .from(ledgerLines)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerLines.entryId))
      .where(
        after
          ? sql`(${ledgerEntries.createdAt}, ${ledgerEntries.id}, ${ledgerLines.id}) > (${after.createdAt}, ${after.entryId}, ${after.lineId})`
          : undefined,
      )
      .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id), asc(ledgerLines.id))
      .limit(JOURNAL_PAGE);
    yield* page;
    if (page.length < JOURNAL_PAGE) return;
    const last = page.at(-1)!;
    after = { createdAt: last.at.getTime(), entryId: last.entryId, lineId: last.lineId };
  }
}
