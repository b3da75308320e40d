// Reconciliation with the payment provider (docs/decisions/0045): our books compared with the provider's
// own, not only with themselves. A run reads the provider's transactions and transfers of the period and
// its balance, and matches them one to one with our payments and payouts by reference and amount: a
// movement only one side knows, another amount or outcome, the provider's transfer fees not yet booked
// (booked now), a payment it reads refunded or reversed that we did not refund (taken back: frozen, see
// chargebacks.server.ts), and what we believe it holds against what it says it holds. Every difference
// is recorded with what each side says, open until an admin resolves it. Refunds have no list at Chapa:
// a payment we refunded in full must read refunded there, and one it reads refunded must be refunded here.
import { and, desc, eq, gte, or, sql } from "drizzle-orm";

import { payments, payouts, reconciliationDifferences, reconciliationRuns } from "~/db/schema";
import { RECONCILIATION_PERIOD_DAYS } from "~/domain/reconciliation";
import { createDatabase, type Database } from "~/server/db/client.server";
import { refundedByPayment } from "~/server/db/refunded.server";
import type { AppConfig } from "~/server/env.server";
import type { ListedTransaction, ListedTransfer } from "~/server/payments/payment-provider.server";
import { paymentProvider } from "~/server/payments/provider.server";

import { takeBackOf } from "./chargebacks.server";
import { balanceOf } from "./ledger.server";
import { bookTransferFee } from "./payouts.server";
import { type Difference, differenceStatement } from "./reconciliation-differences.server";

const DAY_MS = 24 * 60 * 60_000;
/** The job reconciles once a day. */
const RUN_EVERY_MS = DAY_MS;
/** Differences written per batch (each is one statement). */
const DIFFERENCES_PER_BATCH = 50;
/**
 * Each side is read this much further back than the period, so a movement near its start is matched
 * whichever side dated it a little earlier; and a movement of ours younger than FRESH_MS is not yet
 * expected in the provider's lists.
 */
const MARGIN_MS = DAY_MS;
const FRESH_MS = 10 * 60_000;

export interface ReconciliationReport {
  runId: string;
  differences: number;
  /** The provider could not be asked: nothing was compared. */
  error: string | null;
}

/** One run over the period ending `now`; `by` an admin's click, or the daily job. */
export async function reconcileWithProvider(
  env: Env,
  config: AppConfig,
  now: Date,
  by: { adminId: string } | "schedule",
): Promise<ReconciliationReport> {
  const db = createDatabase(env.DB);
  const runId = crypto.randomUUID();
  const periodStart = new Date(now.getTime() - RECONCILIATION_PERIOD_DAYS * DAY_MS);
  await db.insert(reconciliationRuns).values({
    id: runId,
    periodStart,
    periodEnd: now,
    requestedBy: by === "schedule" ? null : by.adminId,
    createdAt: now,
  });
  const provider = paymentProvider(config, env, config.siteOrigin);
  const readFrom = new Date(periodStart.getTime() - MARGIN_MS);
  const [theirTransactions, theirTransfers, theirBalance] = await Promise.all([
    provider.transactions(readFrom),
    provider.transfers(readFrom),
    provider.balance(),
  ]);
  if (!theirTransactions || !theirTransfers || !theirBalance) {
    const error = "The payment service could not be asked for its transactions, transfers or balance";
    await db.update(reconciliationRuns).set({ error, finishedAt: new Date() }).where(eq(reconciliationRuns.id, runId));
    return { runId, differences: 0, error };
  }
  const found = [
    ...(await comparePayments(env, config, db, theirTransactions, { periodStart, now }, provider.name)),
    ...(await compareTransfers(db, theirTransfers, { periodStart, now })),
  ];
  const oursSantim = await balanceOf(db, "provider_clearing");
  if (oursSantim !== theirBalance.ledgerSantim) {
    const inTransit = -(await balanceOf(db, "payouts_in_transit")) - (await balanceOf(db, "refunds_in_transit"));
    found.push({
      kind: "balance_differs",
      subject: "balance",
      reference: "balance",
      ours: { says: "books_balance", inTransitSantim: inTransit },
      theirs: { says: "provider_balance", availableSantim: theirBalance.availableSantim },
      oursSantim,
      theirsSantim: theirBalance.ledgerSantim,
    });
  }
  for (let start = 0; start < found.length; start += DIFFERENCES_PER_BATCH) {
    const statements = found
      .slice(start, start + DIFFERENCES_PER_BATCH)
      .map((difference) => differenceStatement(db, difference, runId, now));
    await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  }
  await db
    .update(reconciliationRuns)
    .set({
      transactionsCompared: theirTransactions.length,
      transfersCompared: theirTransfers.length,
      refundsCompared: theirTransactions.filter((one) => one.status === "refunded" || one.status === "reversed").length,
      providerBalanceSantim: theirBalance.ledgerSantim,
      booksBalanceSantim: oursSantim,
      differencesFound: found.length,
      finishedAt: new Date(),
    })
    .where(eq(reconciliationRuns.id, runId));
  return { runId, differences: found.length, error: null };
}

/** Our payments of the period against the provider's transactions. */
/** The period compared: theirs and ours dated in it are matched; either side is looked up a margin beyond it. */
interface Period {
  periodStart: Date;
  now: Date;
}

/** Whether a movement of ours dated `at` must be in the provider's lists by now (in the period, and not too fresh). */
const expectedBothSides = (at: Date | null, { periodStart, now }: Period) =>
  at !== null && at >= periodStart && at.getTime() <= now.getTime() - FRESH_MS;
/** Whether a movement of the provider's dated `at` is this run's to match (we record ours before asking it). */
const inPeriod = (at: Date | null, { periodStart }: Period) => at !== null && at >= periodStart;

async function comparePayments(
  env: Env,
  config: AppConfig,
  db: Database,
  theirs: ListedTransaction[],
  period: Period,
  providerName: string,
): Promise<Difference[]> {
  const { periodStart, now } = period;
  const ours = await db
    .select()
    .from(payments)
    .where(
      and(gte(payments.createdAt, new Date(periodStart.getTime() - MARGIN_MS)), eq(payments.provider, providerName as "chapa" | "sandbox")),
    );
  const theirRefs = new Set(theirs.flatMap((one) => [one.txRef, one.providerReference]));
  const refunded = await refundedByPayment(
    db,
    ours.map((payment) => payment.id),
  );
  const differences: Difference[] = [];
  for (const their of theirs) {
    if (their.status !== "success" && their.status !== "refunded" && their.status !== "reversed") continue;
    const our = ours.find(
      (payment) => payment.txRef === their.txRef || (payment.providerReference && payment.providerReference === their.providerReference),
    );
    const reference = our?.txRef ?? their.txRef ?? their.providerReference;
    const base = {
      subject: "payment" as const,
      reference,
      consultationId: our?.consultationId ?? null,
      theirs: { says: "provider_status" as const, status: their.providerStatus },
      theirsSantim: their.amountSantim,
    };
    if (!our) {
      if (inPeriod(their.createdAt, period) && !(await knownPayment(db, their)))
        differences.push({ ...base, kind: "missing_in_books", ours: { says: "no_payment" }, oursSantim: null });
      continue;
    }
    const paid = our.status === "paid" || our.status === "paid_after_expiry";
    if (!paid) {
      differences.push({
        ...base,
        kind: "status_differs",
        ours: { says: "payment_status", status: our.status },
        oursSantim: our.amountSantim,
      });
      continue;
    }
    if (their.amountSantim !== our.amountSantim) {
      differences.push({ ...base, kind: "amount_differs", ours: { says: "payment_amount" }, oursSantim: our.amountSantim });
      continue;
    }
    const refundedSantim = refunded.get(our.id) ?? 0;
    if (their.status === "success" && refundedSantim === our.amountSantim)
      differences.push({
        ...base,
        kind: "status_differs",
        ours: { says: "refunded_all" },
        oursSantim: our.amountSantim,
      });
    // Given back at the provider and not by us: taken back, frozen and put before an admin by its own writer.
    if (their.status !== "success" && refundedSantim < our.amountSantim) await takeBackOf(env, config, our.txRef, now);
  }
  for (const our of ours)
    if (
      (our.status === "paid" || our.status === "paid_after_expiry") &&
      !theirRefs.has(our.txRef) &&
      !theirRefs.has(our.providerReference ?? "")
    )
      differences.push({
        kind: "missing_at_provider",
        subject: "payment",
        reference: our.txRef,
        consultationId: our.consultationId,
        ours: { says: "payment_status", status: our.status },
        theirs: { says: "no_transaction" },
        oursSantim: our.amountSantim,
        theirsSantim: null,
      });
  return differences;
}

/** Whether a payment of ours, of any date, is the provider's transaction. */
async function knownPayment(db: Database, their: ListedTransaction): Promise<boolean> {
  const found = await db.query.payments.findFirst({
    where: or(eq(payments.providerReference, their.providerReference), their.txRef ? eq(payments.txRef, their.txRef) : undefined),
    columns: { id: true },
  });
  return found !== undefined;
}

/** Our payouts of the period against the provider's transfers; its fees on transfers that went out are booked if they are not yet. */
async function compareTransfers(db: Database, theirs: ListedTransfer[], period: Period): Promise<Difference[]> {
  const { periodStart, now } = period;
  const ours = await db
    .select()
    .from(payouts)
    .where(and(gte(payouts.createdAt, new Date(periodStart.getTime() - MARGIN_MS)), eq(payouts.channel, "provider")));
  const differences: Difference[] = [];
  for (const their of theirs) {
    const our = ours.find((payout) => payout.reference === their.reference);
    const base = {
      subject: "payout" as const,
      reference: their.reference,
      theirs: { says: "provider_status" as const, status: their.providerStatus },
      theirsSantim: their.amountSantim,
    };
    if (!our) {
      const known = await db.query.payouts.findFirst({ where: eq(payouts.reference, their.reference), columns: { id: true } });
      if (inPeriod(their.createdAt, period) && !known)
        differences.push({ ...base, kind: "missing_in_books", ours: { says: "no_payout" }, oursSantim: null });
      continue;
    }
    if (their.amountSantim !== our.amountSantim) {
      differences.push({ ...base, kind: "amount_differs", ours: { says: "payout_amount" }, oursSantim: our.amountSantim });
      continue;
    }
    const settledBoth =
      (our.status === "succeeded" && their.status === "success") || (our.status === "failed" && their.status === "failed");
    if (our.status !== "pending" && !settledBoth) {
      differences.push({
        ...base,
        kind: "status_differs",
        ours: { says: "payout_status", status: our.status, taken: false },
        oursSantim: our.amountSantim,
      });
      continue;
    }
    if (our.status === "succeeded" && their.feeSantim && our.feeSantim === null) await bookTransferFee(db, our, their.feeSantim, now);
  }
  for (const our of ours) {
    const taken = our.status === "succeeded" || (our.status === "pending" && our.accepted);
    if (taken && expectedBothSides(our.createdAt, period) && !theirs.some((their) => their.reference === our.reference))
      differences.push({
        kind: "missing_at_provider",
        subject: "payout",
        reference: our.reference,
        ours: { says: "payout_status", status: our.status, taken: our.accepted },
        theirs: { says: "no_transfer" },
        oursSantim: our.amountSantim,
        theirsSantim: null,
      });
  }
  return differences;
}

/** The job: a run when the last one (by anyone) is a day old or more. */
export async function reconcileIfDue(env: Env, config: AppConfig, now: Date): Promise<ReconciliationReport | null> {
  const db = createDatabase(env.DB);
  const [last] = await db
    .select({ createdAt: reconciliationRuns.createdAt })
    .from(reconciliationRuns)
    .orderBy(desc(reconciliationRuns.createdAt))
    .limit(1);
  if (last && now.getTime() - last.createdAt.getTime() < RUN_EVERY_MS) return null;
  return reconcileWithProvider(env, config, now, "schedule");
}

/** What the finance pages show: the latest runs, the open differences (oldest first), and those resolved lately. */
export async function reconciliationState(db: Database) {
  const [runs, open, resolved] = await Promise.all([
    db.select().from(reconciliationRuns).orderBy(desc(reconciliationRuns.createdAt)).limit(10),
    db
      .select()
      .from(reconciliationDifferences)
      .where(eq(reconciliationDifferences.status, "open"))
      .orderBy(reconciliationDifferences.createdAt)
      .limit(200),
    db
      .select()
      .from(reconciliationDifferences)
      .where(eq(reconciliationDifferences.status, "resolved"))
      .orderBy(desc(reconciliationDifferences.resolvedAt))
      .limit(20),
  ]);
  return { runs, open, resolved };
}

/** For the banner on /admin/finance: how many differences are open, and when the last run finished. */
export async function reconciliationSummary(db: Database) {
  const [[open], [last]] = await Promise.all([
    db
      .select({ count: sql<number>`count(*)` })
      .from(reconciliationDifferences)
      .where(eq(reconciliationDifferences.status, "open")),
    db.select().from(reconciliationRuns).orderBy(desc(reconciliationRuns.createdAt)).limit(1),
  ]);
  return { openDifferences: Number(open?.count ?? 0), lastRun: last ?? null };
}
