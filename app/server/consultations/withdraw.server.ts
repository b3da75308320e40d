// A patient withdraws a request that is still waiting: it is cancelled and leaves every doctor's list.
import type { AppLoadContext } from "@remix-run/cloudflare";

import type { DecisionOutcome } from "~/domain/consultation-decisions";
import { isUuid } from "~/domain/ids";
import type { SessionUser } from "~/server/auth/session.server";
import { clientAddress } from "~/server/client-address.server";
import { tellParticipants, withdrawRequest } from "~/server/rooms.server";

import { auditOfMove, moveConsultation } from "./move.server";

export async function withdrawConsultation(
  context: AppLoadContext,
  request: Request,
  patient: SessionUser,
  consultationId: string,
): Promise<DecisionOutcome> {
  if (!isUuid(consultationId)) return { ok: false, reason: "not_found" };
  const now = new Date();
  const outcome = await moveConsultation(context.db, {
    consultationId,
    move: "withdraw",
    actor: { kind: "user", userId: patient.userId, role: patient.role },
    now,
    alsoWrite: (db, moved) => [
      auditOfMove(db, moved, { actorId: patient.userId, action: "consultation.withdrawn", ipAddress: clientAddress(request), now }),
    ],
  });
  if (!outcome.ok) {
    // Another patient's request does not exist for this one; their own that a doctor just took, or
    // that is already cancelled, is simply no longer waiting.
    if (outcome.reason === "not_found" || outcome.reason === "not_permitted") return { ok: false, reason: "not_found" };
    return { ok: false, reason: "not_waiting" };
  }
  const env = context.cloudflare.env;
  await Promise.all([
    withdrawRequest(env, consultationId),
    tellParticipants(env, { type: "status", consultationId, status: "cancelled", reason: "withdrawn" }),
  ]);
  return { ok: true };
}
