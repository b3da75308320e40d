// An admin ends a paid consultation its doctor cannot finish (deactivated, gone silent), so the
// patient's money is not stranded: the move to `cancelled`, its audit entry, the escrow marked refunded,
// the refund of the whole fee with its ledger entry, and both people told, all in one batch written only
// if this call made the move. Only then is the provider asked for the refund (docs/decisions/0028).
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, sql } from "drizzle-orm";

import { escrows } from "~/db/schema";
import { consultationLink } from "~/domain/notifications";
import { clientAddress } from "~/server/client-address.server";
import { moneyEmail } from "~/server/mail/money-emails.server";
import { escrowMove } from "~/server/money/escrow.server";
import { attemptRefund, refundStatements } from "~/server/money/refunds.server";
import { tellParticipants } from "~/server/rooms.server";
import { deliverTidings, NOTHING_OUTGOING, tidingsFor, tidingsStatements } from "~/server/tidings.server";

import { auditOfMove, moveConsultation, onlyIfMoved } from "./move.server";

export type CancelPaidOutcome = "cancelled" | "not_found" | "not_in_progress" | "disputed";

export async function cancelPaidConsultation(
  context: AppLoadContext,
  request: Request,
  adminId: string,
  consultationId: string,
  note: string,
  now: Date,
): Promise<CancelPaidOutcome> {
  const { db } = context;
  const escrow = await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) });
  const consultation = await db.query.consultations.findFirst({ where: (table, { eq }) => eq(table.id, consultationId) });
  if (!consultation) return "not_found";
  if (consultation.status !== "in_progress" || !escrow) return "not_in_progress";
  if (escrow.status === "disputed") return "disputed";
  const values = { title: consultation.title, note };
  const [patientTold, doctorTold] = await Promise.all([
    tidingsFor(
      db,
      consultation.patientId,
      { kind: "consultation_cancelled", consultationId, link: consultationLink("patient", consultationId) },
      (t, to) => moneyEmail(t, to, "paidCancelled", values, `${context.config.siteOrigin}${consultationLink("patient", consultationId)}`),
    ),
    consultation.doctorId
      ? tidingsFor(
          db,
          consultation.doctorId,
          { kind: "consultation_cancelled", consultationId, link: consultationLink("doctor", consultationId) },
          (t, to) =>
            moneyEmail(
              t,
              to,
              "paidCancelled",
              values,
              `${context.config.siteOrigin}${consultationLink("doctor", consultationId)}`,
              "email.paidCancelled.doctorBody",
            ),
        )
      : null,
  ]);
  let refundId: string | null = null;
  let outgoing = NOTHING_OUTGOING;
  const outcome = await moveConsultation(db, {
    consultationId,
    move: "cancelAfterPayment",
    actor: { kind: "user", userId: adminId, role: "admin" },
    now,
    alsoWrite: (db, moved) => {
      const movedHere = onlyIfMoved(moved);
      const refund = refundStatements(
        db,
        {
          paymentId: escrow.paymentId,
          consultationId,
          amountSantim: escrow.amountSantim,
          reason: "cancelled",
          requestedBy: adminId,
          note,
        },
        now,
        movedHere,
      );
      refundId = refund.refundId;
      const tidings = tidingsStatements(db, [patientTold, ...(doctorTold ? [doctorTold] : [])], now, movedHere);
      outgoing = tidings;
      return [
        auditOfMove(db, moved, {
          actorId: adminId,
          action: "consultation.cancelled_after_payment",
          ipAddress: clientAddress(request),
          now,
          details: sql<string>`json_object('reason', ${note}, 'amountSantim', ${escrow.amountSantim})`,
        }),
        escrowMove(db, {
          from: ["held", "in_review"],
          to: "refunded",
          where: and(eq(escrows.consultationId, consultationId), movedHere),
          now,
        }),
        ...refund.statements,
        ...tidings.statements,
      ];
    },
  });
  if (!outcome.ok) {
    if (outcome.reason === "not_found") return "not_found";
    return "not_in_progress";
  }
  const env = context.cloudflare.env;
  await Promise.all([
    tellParticipants(env, { type: "status", consultationId, status: "cancelled" }),
    deliverTidings(db, context.config, outgoing, context),
  ]);
  if (refundId) await attemptRefund(env, context.config, refundId, now);
  return "cancelled";
}
