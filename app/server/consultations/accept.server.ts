// A doctor accepts a waiting request. Of any number of doctors accepting at once, exactly one moves it
// (one conditional UPDATE); the chat row and the audit entry are written with that move only. Then the
// room starts the payment window, every doctor's list drops the request, the patient's page moves on,
// and the patient is emailed the payment link and deadline.
import type { AppLoadContext } from "@remix-run/cloudflare";

import type { DecisionOutcome } from "~/domain/consultation-decisions";
import { isUuid } from "~/domain/ids";
import type { SessionUser } from "~/server/auth/session.server";
import { clientAddress } from "~/server/client-address.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { armPaymentDeadline, tellParticipants, withdrawRequest } from "~/server/rooms.server";
import { deliverTidings, NOTHING_OUTGOING, tidingsStatements } from "~/server/tidings.server";

import { auditOfMove, chatOfMove, moveConsultation, onlyIfMoved } from "./move.server";
import { refusalOf } from "./refusals.server";
import { acceptedTidings } from "./tell-patient.server";

export async function acceptConsultation(
  context: AppLoadContext,
  request: Request,
  doctor: SessionUser,
  consultationId: string,
): Promise<DecisionOutcome> {
  if (!isUuid(consultationId)) return { ok: false, reason: "not_found" };
  const { db } = context;
  const now = new Date();
  const waiting = await findConsultationById(db, consultationId);
  const deadline = new Date(now.getTime() + context.config.paymentWindowMs);
  const origin = new URL(request.url).origin;
  const tidings = waiting ? await acceptedTidings(db, waiting, doctor.userId, deadline, origin) : null;
  let outgoing = NOTHING_OUTGOING;
  const outcome = await moveConsultation(db, {
    consultationId,
    move: "accept",
    actor: { kind: "user", userId: doctor.userId, role: doctor.role },
    now,
    rules: { paymentWindowMs: context.config.paymentWindowMs },
    alsoWrite: (db, moved) => {
      const told = tidingsStatements(db, tidings ? [tidings] : [], now, onlyIfMoved(moved));
      outgoing = told;
      return [
        chatOfMove(db, moved, doctor.userId, now),
        auditOfMove(db, moved, { actorId: doctor.userId, action: "consultation.accepted", ipAddress: clientAddress(request), now }),
        ...told.statements,
      ];
    },
  });
  if (!outcome.ok) return refusalOf(db, consultationId, outcome);

  const env = context.cloudflare.env;
  await armPaymentDeadline(env, consultationId, outcome.consultation.paymentDeadlineAt!);
  await Promise.all([
    withdrawRequest(env, consultationId),
    tellParticipants(env, { type: "status", consultationId, status: "accepted_awaiting_payment" }),
  ]);
  await deliverTidings(db, context.config, outgoing, context);
  return { ok: true };
}
