// The assigned doctor ends a consultation in progress, with its summary: one move to `completed` that
// writes the summary, closes the chat row and audits, only for the call that made it. Both participants
// hear it live (the chat's input gives way to "ended"), and the patient is told the summary is ready.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { sql } from "drizzle-orm";

import { chats, consultations } from "~/db/schema";
import { isUuid } from "~/domain/ids";
import type { Summary } from "~/domain/summary-schema";
import type { SessionUser } from "~/server/auth/session.server";
import { clientAddress } from "~/server/client-address.server";
import type { Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { reviewEndedOfMove } from "~/server/money/escrow.server";
import { tellParticipants } from "~/server/rooms.server";
import { deliverTidings, NOTHING_OUTGOING, tidingsStatements } from "~/server/tidings.server";

import { auditOfMove, moveConsultation, type MovedByThisCall, onlyIfMoved } from "./move.server";
import { type ClosingOutcome, closingRefusal, summaryColumns } from "./summary.server";
import { summaryReadyTidings } from "./tell-patient.server";

export async function endConsultation(
  context: AppLoadContext,
  request: Request,
  doctor: SessionUser,
  consultationId: string,
  summary: Summary,
): Promise<ClosingOutcome> {
  if (!isUuid(consultationId)) return { ok: false, reason: "not_found" };
  const { db } = context;
  const now = new Date();
  const ongoing = await findConsultationById(db, consultationId);
  const tidings = ongoing ? await summaryReadyTidings(db, ongoing, doctor.userId, new URL(request.url).origin) : null;
  let outgoing = NOTHING_OUTGOING;
  const outcome = await moveConsultation(db, {
    consultationId,
    move: "complete",
    actor: { kind: "user", userId: doctor.userId, role: doctor.role },
    now,
    alsoSet: summaryColumns(summary, now),
    alsoWrite: (db, moved) => {
      const told = tidingsStatements(db, tidings ? [tidings] : [], now, onlyIfMoved(moved));
      outgoing = told;
      return [
        chatClosedByMove(db, moved),
        auditOfMove(db, moved, { actorId: doctor.userId, action: "consultation.completed", ipAddress: clientAddress(request), now }),
        // An escrow sent to review while the doctor was away is held again, on the normal path from the end.
        ...reviewEndedOfMove(db, moved, doctor.userId, now),
        ...told.statements,
      ];
    },
  });
  if (!outcome.ok) return { ok: false, reason: await closingRefusal(db, doctor, consultationId) };
  await tellParticipants(context.cloudflare.env, { type: "status", consultationId, status: "completed" });
  await deliverTidings(db, context.config, outgoing, context);
  return { ok: true };
}

function chatClosedByMove(db: Database, moved: MovedByThisCall) {
  return db
    .update(chats)
    .set({ status: "closed" })
    .where(sql`${chats.consultationId} IN (SELECT ${consultations.id} FROM ${consultations} WHERE ${moved})`);
}
