// When a payment window closes unpaid, the doctor is cleared and the request goes back to the queue
// (the state machine's `expirePayment`); both participants and every doctor are told. The room's alarm,
// the cron sweep and a late first look at the payment page all come here; running twice is harmless.
import { and, eq, lte } from "drizzle-orm";

import { consultations } from "~/db/schema";
import type { ConsultationStatusEvent } from "~/realtime/protocol";
import { createDatabase, type Database } from "~/server/db/client.server";
import { announceRequest, tellParticipants } from "~/server/rooms.server";
import { waitingRequest } from "~/server/waiting-requests.server";

import { moveConsultation } from "./move.server";

export type ExpiryOutcome = { kind: "expired" } | { kind: "not_yet"; deadline: Date } | { kind: "nothing_to_expire" };

/**
 * Closes the payment window of `consultationId` if it is due. `tell` reaches the consultation's room
 * (the room itself passes its own `announce`, so it need not call itself).
 */
export async function expirePayment(
  env: Env,
  consultationId: string,
  now: Date,
  tell: (event: ConsultationStatusEvent) => Promise<void> = (event) => tellParticipants(env, event),
): Promise<ExpiryOutcome> {
  const db = createDatabase(env.DB);
  const current = await db.query.consultations.findFirst({
    columns: { status: true, paymentDeadlineAt: true },
    where: eq(consultations.id, consultationId),
  });
  if (current?.status !== "accepted_awaiting_payment") return { kind: "nothing_to_expire" };
  if (current.paymentDeadlineAt && current.paymentDeadlineAt > now) return { kind: "not_yet", deadline: current.paymentDeadlineAt };
  const outcome = await moveConsultation(db, { consultationId, move: "expirePayment", actor: { kind: "system" }, now });
  if (!outcome.ok) return { kind: "nothing_to_expire" };
  await tell({ type: "status", consultationId, status: "pending", reason: "payment_expired" });
  const summary = await waitingRequest(db, consultationId);
  if (summary) await announceRequest(env, summary);
  return { kind: "expired" };
}

/** Every consultation whose payment window has closed without payment (for the cron sweep). */
export async function overduePayments(db: Database, now: Date) {
  const rows = await db
    .select({ id: consultations.id })
    .from(consultations)
    .where(and(eq(consultations.status, "accepted_awaiting_payment"), lte(consultations.paymentDeadlineAt, now)));
  return rows.map((row) => row.id);
}
