// A doctor's earnings, read from the ledger and the rows it records (docs/decisions/0028): what is held
// in escrow for their consultations, what is theirs and not yet sent, what is on its way and what has
// reached their account; each consultation's share and each payout with its reference and state.
import { and, desc, eq, inArray, sql } from "drizzle-orm";

import { consultations, escrows, ledgerEntries, ledgerLines, payouts, profiles, users } from "~/db/schema";
import { santimFromSum, splitRelease } from "~/domain/money";
import type { PageRequest } from "~/domain/paging";
import type { Database } from "~/server/db/client.server";

import { balanceOf } from "./ledger.server";

export interface EarningsTotals {
  /** The doctor's share of fees still held in escrow (held, disputed or in review). */
  heldSantim: number;
  /** Released to the doctor and not yet sent. */
  availableSantim: number;
  /** Sent to the doctor's bank, not yet settled by the provider. */
  inTransitSantim: number;
  /** Reached the doctor's account. */
  paidOutSantim: number;
}

export async function earningsTotals(db: Database, doctorId: string): Promise<EarningsTotals> {
  const [held, available, inTransit, [paid]] = await Promise.all([
    db
      .select({ amountSantim: escrows.amountSantim, count: sql<number>`count(*)` })
      .from(escrows)
      .where(and(eq(escrows.doctorId, doctorId), inArray(escrows.status, ["held", "disputed", "in_review"])))
      .groupBy(escrows.amountSantim),
    balanceOf(db, "doctor_payable", doctorId),
    balanceOf(db, "payouts_in_transit", doctorId),
    db
      .select({ total: sql<number>`coalesce(sum(${payouts.amountSantim}), 0)` })
      .from(payouts)
      .where(and(eq(payouts.doctorId, doctorId), eq(payouts.status, "succeeded"))),
  ]);
  return {
    heldSantim: held.reduce((sum, row) => sum + splitRelease(row.amountSantim).doctorSantim * Number(row.count), 0),
    // Both are kept as credits (negative): what the platform owes.
    availableSantim: 0 - available,
    inTransitSantim: 0 - inTransit,
    paidOutSantim: santimFromSum(paid?.total),
  };
}

/** What the doctor's payable gained from a consultation (its release, whole or after a part refund). */
const releasedToDoctor = sql<number>`coalesce((
  SELECT -sum(${ledgerLines.amountSantim}) FROM ${ledgerLines}
  INNER JOIN ${ledgerEntries} ON ${ledgerEntries.id} = ${ledgerLines.entryId}
  WHERE ${ledgerEntries.consultationId} = ${escrows.consultationId}
    AND ${ledgerEntries.kind} = 'escrow_released'
    AND ${ledgerLines.account} = 'doctor_payable'), 0)`;

/** The doctor's paid consultations, newest first, a page at a time. */
export async function earningsByConsultation(db: Database, doctorId: string, page: PageRequest) {
  const rows = await db
    .select({
      consultationId: escrows.consultationId,
      status: escrows.status,
      feeSantim: escrows.amountSantim,
      releasedSantim: releasedToDoctor,
      paidAt: escrows.createdAt,
      releasedAt: escrows.releasedAt,
      completedAt: consultations.completedAt,
      patientFirstName: profiles.firstName,
      patientClosedAt: users.closedAt,
    })
    .from(escrows)
    .innerJoin(consultations, eq(consultations.id, escrows.consultationId))
    .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
    .leftJoin(users, eq(users.id, consultations.patientId))
    .where(eq(escrows.doctorId, doctorId))
    .orderBy(desc(escrows.createdAt), desc(escrows.consultationId))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => ({
    ...row,
    releasedSantim: santimFromSum(row.releasedSantim),
    // What the doctor stands to receive while it is held; what they did receive once it is settled.
    shareSantim:
      row.status === "released" || row.status === "refunded" ? santimFromSum(row.releasedSantim) : splitRelease(row.feeSantim).doctorSantim,
  }));
}

/** Every release to the doctor with its date: the months' figures are summed from these. */
export async function releasesOf(db: Database, doctorId: string) {
  const rows = await db
    .select({ releasedAt: ledgerEntries.createdAt, amountSantim: sql<number>`-${ledgerLines.amountSantim}` })
    .from(ledgerLines)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerLines.entryId))
    .where(and(eq(ledgerLines.account, "doctor_payable"), eq(ledgerLines.subject, doctorId), eq(ledgerEntries.kind, "escrow_released")))
    .orderBy(desc(ledgerEntries.createdAt));
  return rows.map((row) => ({ releasedAt: row.releasedAt, amountSantim: santimFromSum(row.amountSantim) }));
}

/** The doctor's payouts, newest first. */
export async function payoutsOf(db: Database, doctorId: string, limit = 100) {
  return db
    .select({
      reference: payouts.reference,
      amountSantim: payouts.amountSantim,
      status: payouts.status,
      bankName: payouts.bankName,
      accountNumber: payouts.accountNumber,
      failureReason: payouts.failureReason,
      createdAt: payouts.createdAt,
      settledAt: payouts.settledAt,
    })
    .from(payouts)
    .where(eq(payouts.doctorId, doctorId))
    .orderBy(desc(payouts.createdAt))
    .limit(limit);
}

/**
 * The doctor's statement for a spreadsheet: every movement of their money (each release to them, each
 * payout sent, returned or settled), oldest first, from the ledger itself.
 */
export async function statementOf(db: Database, doctorId: string) {
  const rows = await db
    .select({
      at: ledgerEntries.createdAt,
      kind: ledgerEntries.kind,
      key: ledgerEntries.idempotencyKey,
      consultationId: ledgerEntries.consultationId,
      account: ledgerLines.account,
      amountSantim: ledgerLines.amountSantim,
    })
    .from(ledgerLines)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerLines.entryId))
    .where(and(eq(ledgerLines.subject, doctorId), eq(ledgerLines.account, "doctor_payable")))
    .orderBy(ledgerEntries.createdAt, ledgerEntries.id);
  return rows;
}
