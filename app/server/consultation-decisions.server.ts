// A doctor's decision on a waiting request. Accepting is one conditional UPDATE: of any number of
// doctors at once, exactly one finds the request still pending; the same batch writes the chat row and
// the audit entry only for that winner. The rooms are told afterwards.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, type SQL, sql } from "drizzle-orm";

import { auditLog, chats, consultations } from "~/db/schema";
import { type Actor, planTransition } from "~/domain/consultation-status";
import { isUuid } from "~/domain/ids";
import type { AuditAction } from "~/server/audit.server";
import type { SessionUser } from "~/server/auth/session.server";
import { clientAddress } from "~/server/client-address.server";
import { armPaymentDeadline, tellParticipants, withdrawRequest } from "~/server/rooms.server";

export type DecisionOutcome = { ok: true } | { ok: false; reason: "not_found" | "already_taken" | "not_permitted" };

/** An audit row for `actorId`, copied from the consultation only where `won` holds. */
function auditOfWinner(
  db: AppLoadContext["db"],
  actorId: string,
  action: AuditAction,
  ipAddress: string | null,
  now: Date,
  won: SQL | undefined,
) {
  return db
    .select({
      id: sql<number>`NULL`.as("id"),
      actorId: sql<string>`${actorId}`.as("actor_id"),
      action: sql<string>`${action}`.as("action"),
      targetType: sql<string>`'consultation'`.as("target_type"),
      targetId: consultations.id,
      ipAddress: sql<string | null>`${ipAddress}`.as("ip_address"),
      details: sql<null>`NULL`.as("details"),
      createdAt: sql<Date>`${now.getTime()}`.as("created_at"),
    })
    .from(consultations)
    .where(won);
}

async function load(context: AppLoadContext, consultationId: string) {
  if (!isUuid(consultationId)) return undefined;
  return context.db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) });
}

export async function acceptConsultation(
  context: AppLoadContext,
  request: Request,
  doctor: SessionUser,
  consultationId: string,
): Promise<DecisionOutcome> {
  const { db } = context;
  const now = new Date();
  const consultation = await load(context, consultationId);
  if (!consultation) return { ok: false, reason: "not_found" };
  const actor: Actor = { kind: "user", userId: doctor.userId, role: doctor.role };
  const plan = planTransition(consultation, "accept", actor, now);
  if (!plan.ok) return { ok: false, reason: plan.refusal === "wrong_status" ? "already_taken" : "not_permitted" };

  // Only the doctor whose update took the request gets the chat row and the audit entry: both are
  // copied from the consultation row as this very update left it, so a loser's batch inserts nothing.
  const wonByThisDoctor = and(
    eq(consultations.id, consultationId),
    eq(consultations.doctorId, doctor.userId),
    eq(consultations.status, "accepted_awaiting_payment"),
    eq(consultations.acceptedAt, now),
  );
  const [updated] = await db.batch([
    db
      .update(consultations)
      .set(plan.changes)
      .where(and(eq(consultations.id, consultationId), eq(consultations.status, plan.from)))
      .returning({ id: consultations.id }),
    db
      .insert(chats)
      .select(
        db
          .select({
            consultationId: consultations.id,
            doctorId: sql<string>`${doctor.userId}`.as("doctor_id"),
            patientId: consultations.patientId,
            status: sql<"active">`'active'`.as("status"),
            createdAt: sql<Date>`${now.getTime()}`.as("created_at"),
          })
          .from(consultations)
          .where(wonByThisDoctor),
      )
      .onConflictDoUpdate({ target: chats.consultationId, set: { doctorId: doctor.userId, status: "active" } }),
    db.insert(auditLog).select(auditOfWinner(db, doctor.userId, "consultation.accepted", clientAddress(request), now, wonByThisDoctor)),
  ]);
  if (updated.length === 0) return { ok: false, reason: "already_taken" };

  const env = context.cloudflare.env;
  await armPaymentDeadline(env, consultationId, plan.changes.paymentDeadlineAt!);
  await Promise.all([
    withdrawRequest(env, consultationId),
    tellParticipants(env, { type: "status", consultationId, status: "accepted_awaiting_payment" }),
  ]);
  return { ok: true };
}

export async function declineConsultation(
  context: AppLoadContext,
  request: Request,
  doctor: SessionUser,
  consultationId: string,
): Promise<DecisionOutcome> {
  const { db } = context;
  const now = new Date();
  const consultation = await load(context, consultationId);
  if (!consultation) return { ok: false, reason: "not_found" };
  const plan = planTransition(consultation, "decline", { kind: "user", userId: doctor.userId, role: doctor.role }, now);
  if (!plan.ok) return { ok: false, reason: plan.refusal === "wrong_status" ? "already_taken" : "not_permitted" };
  const declinedNow = and(eq(consultations.id, consultationId), eq(consultations.status, "cancelled"), eq(consultations.cancelledAt, now));
  const [updated] = await db.batch([
    db
      .update(consultations)
      .set(plan.changes)
      .where(and(eq(consultations.id, consultationId), eq(consultations.status, plan.from)))
      .returning({ id: consultations.id }),
    db.insert(auditLog).select(auditOfWinner(db, doctor.userId, "consultation.declined", clientAddress(request), now, declinedNow)),
  ]);
  if (updated.length === 0) return { ok: false, reason: "already_taken" };
  const env = context.cloudflare.env;
  await Promise.all([withdrawRequest(env, consultationId), tellParticipants(env, { type: "status", consultationId, status: "cancelled" })]);
  return { ok: true };
}
