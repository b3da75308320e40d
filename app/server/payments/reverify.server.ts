// Payments nobody came back for: a webhook that never landed and a patient who closed the tab leave an
// attempt `initialized` while the money may sit at the provider. The scheduled job asks the provider
// about each open attempt for up to a week, through the one confirmation path (so a payment found this
// way starts the consultation, or is kept as late, exactly as the webhook would have done). One still
// open after that week is flagged for an admin rather than forgotten.
import { and, asc, eq, gt, isNull, lt, lte } from "drizzle-orm";

import { payments } from "~/db/schema";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { createDatabase } from "~/server/db/client.server";
import { markPaymentAsked } from "~/server/db/payments.server";
import type { AppConfig } from "~/server/env.server";
import { flagPaymentForReview } from "~/server/payments/flagged-payments.server";

/** How long an attempt is asked about: longer than any checkout stays open, and than Chapa retries its webhook (72 h). */
const REVERIFY_FOR_MS = 7 * 24 * 60 * 60_000;
/** An attempt younger than this is left to its patient, who is probably still on the checkout page. */
const REVERIFY_AFTER_MS = 2 * 60_000;
/** The most asked about in one run (the job runs every 15 minutes; the least recently asked go first). */
const REVERIFY_PER_RUN = 100;
/** A run stops asking after this long (a provider timing out at 10 s a call must not hold the job). */
const REVERIFY_BUDGET_MS = 2 * 60_000;

export interface ReverifyReport {
  asked: number;
  confirmed: number;
  late: number;
  failed: number;
  stillOpen: number;
  /** The provider disagreed with our record, or gave back the money, or said something we do not know: flagged for an admin. */
  mismatched: number;
  /** Open for longer than we ask: flagged for an admin. */
  flagged: number;
}

export async function reverifyOpenPayments(env: Env, config: AppConfig, now: Date): Promise<ReverifyReport> {
  const db = createDatabase(env.DB);
  const open = await db
    .select({ txRef: payments.txRef })
    .from(payments)
    .where(
      and(
        eq(payments.status, "initialized"),
        gt(payments.createdAt, new Date(now.getTime() - REVERIFY_FOR_MS)),
        lt(payments.createdAt, new Date(now.getTime() - REVERIFY_AFTER_MS)),
      ),
    )
    .orderBy(asc(payments.updatedAt))
    .limit(REVERIFY_PER_RUN);
  const report: ReverifyReport = { asked: 0, confirmed: 0, late: 0, failed: 0, stillOpen: 0, mismatched: 0, flagged: 0 };
  const startedMs = Date.now();
  for (const { txRef } of open) {
    if (Date.now() - startedMs > REVERIFY_BUDGET_MS) break;
    const outcome = await confirmPayment(env, config, config.siteOrigin, txRef, now);
    report.asked += 1;
    if (outcome.kind === "confirmed" || outcome.kind === "already_confirmed") report.confirmed += 1;
    else if (outcome.kind === "late") report.late += 1;
    else if (outcome.kind === "not_paid" && outcome.status === "failed") report.failed += 1;
    else if (outcome.kind === "mismatch" || outcome.kind === "flagged") report.mismatched += 1;
    else report.stillOpen += 1;
    // Asked now: the next run asks the others first.
    if (outcome.kind === "not_paid" && outcome.status === "pending") await markPaymentAsked(db, txRef, now);
  }
  const givenUp = await db
    .select({ txRef: payments.txRef })
    .from(payments)
    .where(
      and(
        eq(payments.status, "initialized"),
        isNull(payments.reviewReason),
        lte(payments.createdAt, new Date(now.getTime() - REVERIFY_FOR_MS)),
      ),
    )
    .limit(REVERIFY_PER_RUN);
  for (const { txRef } of givenUp) if (await flagPaymentForReview(db, txRef, "open_too_long", null, now)) report.flagged += 1;
  return report;
}
