// Closing a payment window from outside the room (the cron sweep, a late first look): the same move
// as the room's alarm, then both participants and the lobby are told.
import { createDatabase } from "~/server/db/client.server";
import { requestSummary } from "~/server/db/requests.server";
import { expireUnpaidConsultation } from "~/server/payment-deadline.server";
import { announceRequest, tellParticipants } from "~/server/rooms.server";

/** True when this call returned the consultation to the queue. */
export async function expireAndAnnounce(env: Env, consultationId: string, now: Date): Promise<boolean> {
  const db = createDatabase(env.DB);
  if ((await expireUnpaidConsultation(db, consultationId, now)).kind !== "expired") return false;
  await tellParticipants(env, { type: "status", consultationId, status: "pending", reason: "payment_expired" });
  const summary = await requestSummary(db, consultationId);
  if (summary) await announceRequest(env, summary);
  return true;
}
