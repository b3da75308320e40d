// What our refunds gave back of a payment: only refunds settled (succeeded, through the provider or
// made outside it by an admin); one pending or failed has given nothing back yet.
import { and, eq, inArray, sql } from "drizzle-orm";

import { refunds } from "~/db/schema";
import { santimFromSum } from "~/domain/money";
import { inSlices } from "~/server/db/chunks.server";
import type { Database } from "~/server/db/client.server";

/** What our settled refunds gave back of each payment, in santim (asked in slices: D1 binds at most 100 values a query). */
export async function refundedByPayment(db: Database, paymentIds: string[]): Promise<Map<string, number>> {
  const refunded = new Map<string, number>();
  for (const slice of inSlices(paymentIds)) {
    const rows = await db
      .select({ paymentId: refunds.paymentId, total: sql<number>`sum(${refunds.amountSantim})` })
      .from(refunds)
      .where(and(inArray(refunds.paymentId, slice), eq(refunds.status, "succeeded")))
      .groupBy(refunds.paymentId);
    for (const row of rows) refunded.set(row.paymentId, santimFromSum(row.total));
  }
  return refunded;
}

/** What our settled refunds gave back of one payment, in santim. */
export async function refundedOf(db: Database, paymentId: string): Promise<number> {
  return (await refundedByPayment(db, [paymentId])).get(paymentId) ?? 0;
}
