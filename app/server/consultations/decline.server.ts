// A doctor declines a waiting request, saying why. The request is cancelled (for every doctor), the
// patient's page says so at once with the reason, and the patient is emailed with a way to start again.
import type { AppLoadContext } from "@remix-run/cloudflare";

import type { DecisionOutcome } from "~/domain/consultation-decisions";
import type { DeclineReason } from "~/domain/consultation-status";
import { isUuid } from "~/domain/ids";
import type { SessionUser } from "~/server/auth/session.server";
import { clientAddress } from "~/server/client-address.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { tellParticipants, withdrawRequest } from "~/server/rooms.server";
import { deliverTidings, NOTHING_OUTGOING, tidingsStatements } from "~/server/tidings.server";

import { auditOfMove, moveConsultation, onlyIfMoved } from "./move.server";
import { refusalOf } from "./refusals.server";
import { declinedTidings } from "./tell-patient.server";

export async function declineConsultation(
  context: AppLoadContext,
  request: Request,
  doctor: SessionUser,
  consultationId: string,
  decline: { reason: DeclineReason; note: string | null },
): Promise<DecisionOutcome> {
  if (!isUuid(consultationId)) return { ok: false, reason: "not_found" };
  const { reason, note } = decline;
  const { db } = context;
  const now = new Date();
  const waiting = await findConsultationById(db, consultationId);
  const tidings = waiting ? await declinedTidings(db, waiting, decline, new URL(request.url).origin) : null;
  let outgoing = NOTHING_OUTGOING;
  const outcome = await moveConsultation(db, {
    consultationId,
    move: "decline",
    actor: { kind: "user", userId: doctor.userId, role: doctor.role },
    now,
    alsoSet: { declineReason: reason, declineNote: note },
    alsoWrite: (db, moved) => {
      const told = tidingsStatements(db, tidings ? [tidings] : [], now, onlyIfMoved(moved));
      outgoing = told;
      return [
        auditOfMove(db, moved, { actorId: doctor.userId, action: "consultation.declined", ipAddress: clientAddress(request), now }),
        ...told.statements,
      ];
    },
  });
  if (!outcome.ok) return refusalOf(db, consultationId, outcome);

  const env = context.cloudflare.env;
  await Promise.all([
    withdrawRequest(env, consultationId),
    tellParticipants(env, { type: "status", consultationId, status: "cancelled", reason: "declined", decline: { reason, note } }),
  ]);
  await deliverTidings(db, context.config, outgoing, context);
  return { ok: true };
}
