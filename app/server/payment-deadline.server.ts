// What happens when a consultation's payment window closes: if it is still unpaid, the doctor is
// cleared and the request goes back to the queue (the state machine's `expirePayment`).
import { and, eq, lte } from "drizzle-orm";

import { consultations } from "~/db/schema";
import type { Database } from "~/server/db/client.server";
import { applyConsultationMove } from "~/server/db/consultations.server";

export type ExpiryOutcome = { kind: "expired" } | { kind: "not_yet"; deadline: Date } | { kind: "nothing_to_expire" };

export async function expireUnpaidConsultation(db: Database, consultationId: string, now: Date): Promise<ExpiryOutcome> {
  const consultation = await db.query.consultations.findFirst({
    columns: { status: true, paymentDeadlineAt: true },
    where: eq(consultations.id, consultationId),
  });
  if (!consultation || consultation.status !== "accepted_awaiting_payment") return { kind: "nothing_to_expire" };
  if (consultation.paymentDeadlineAt && consultation.paymentDeadlineAt > now) {
    return { kind: "not_yet", deadline: consultation.paymentDeadlineAt };
  }
  const outcome = await applyConsultationMove(db, consultationId, "expirePayment", { kind: "system" }, now);
  return outcome.ok ? { kind: "expired" } : { kind: "nothing_to_expire" };
}

/** Every consultation whose payment window has closed without payment (for the cron sweep). */
export async function overduePayments(db: Database, now: Date) {
  const rows = await db
    .select({ id: consultations.id })
    .from(consultations)
    .where(and(eq(consultations.status, "accepted_awaiting_payment"), lte(consultations.paymentDeadlineAt, now)));
  return rows.map((row) => row.id);
}
