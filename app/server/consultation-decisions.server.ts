// A doctor's decision on a waiting request. Accepting is one conditional UPDATE: of any number of
// doctors at once, exactly one finds the request still pending; the same batch writes the chat row and
// the audit entry only for that winner. The rooms are told afterwards.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, sql } from "drizzle-orm";
import { auditLog, chats, consultations } from "~/db/schema";
import { planTransition, type Actor } from "~/domain/consultation-status";
import type { SessionUser } from "~/server/auth/session.server";
import { clientAddress } from "~/server/audit.server";
import { armPaymentDeadline, tellParticipants, withdrawRequest } from "~/server/rooms.server";

export type DecisionOutcome = { ok: true } | { ok: false; reason: "not_found" | "already_taken" | "not_permitted" };

async function load(context: AppLoadContext, consultationId: string) {
  return context.db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) });
}

export async function acceptConsultation(context: AppLoadContext, request: Request, doctor: SessionUser, consultationId: string): Promise<DecisionOutcome> {
  const { db } = context;
  const now = new Date();
  const consultation = await load(context, consultationId);
  if (!consultation) return { ok: false, reason: "not_found" };
  const actor: Actor = { kind: "user", userId: doctor.userId, role: doctor.role };
  const plan = planTransition(consultation, "accept", actor, now);
  if (!plan.ok) return { ok: false, reason: plan.refusal === "wrong_status" ? "already_taken" : "not_permitted" };

  // Only the doctor whose update took the request gets the chat row and the audit entry.
  const won = sql`EXISTS (SELECT 1 FROM ${consultations} WHERE ${consultations.id} = ${consultationId} AND ${consultations.doctorId} = ${doctor.userId} AND ${consultations.status} = 'accepted_awaiting_payment' AND ${consultations.acceptedAt} = ${now.getTime()})`;
  const [updated] = await db.batch([
    db
      .update(consultations)
      .set(plan.changes)
      .where(and(eq(consultations.id, consultationId), eq(consultations.status, plan.from)))
      .returning({ id: consultations.id }),
    db.run(sql`INSERT INTO ${chats} (consultation_id, doctor_id, patient_id, status, created_at)
      SELECT ${consultationId}, ${doctor.userId}, ${consultation.patientId}, 'active', ${now.getTime()} WHERE ${won}
      ON CONFLICT (consultation_id) DO UPDATE SET doctor_id = excluded.doctor_id, status = 'active'`),
    db.run(sql`INSERT INTO ${auditLog} (actor_id, action, target_type, target_id, ip_address, details, created_at)
      SELECT ${doctor.userId}, 'consultation.accepted', 'consultation', ${consultationId}, ${clientAddress(request)}, NULL, ${now.getTime()} WHERE ${won}`),
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

export async function declineConsultation(context: AppLoadContext, request: Request, doctor: SessionUser, consultationId: string): Promise<DecisionOutcome> {
  const { db } = context;
  const now = new Date();
  const consultation = await load(context, consultationId);
  if (!consultation) return { ok: false, reason: "not_found" };
  const plan = planTransition(consultation, "decline", { kind: "user", userId: doctor.userId, role: doctor.role }, now);
  if (!plan.ok) return { ok: false, reason: plan.refusal === "wrong_status" ? "already_taken" : "not_permitted" };
  const [updated] = await db.batch([
    db
      .update(consultations)
      .set(plan.changes)
      .where(and(eq(consultations.id, consultationId), eq(consultations.status, plan.from)))
      .returning({ id: consultations.id }),
    db.run(sql`INSERT INTO ${auditLog} (actor_id, action, target_type, target_id, ip_address, details, created_at)
      SELECT ${doctor.userId}, 'consultation.declined', 'consultation', ${consultationId}, ${clientAddress(request)}, NULL, ${now.getTime()}
      WHERE EXISTS (SELECT 1 FROM ${consultations} WHERE ${consultations.id} = ${consultationId} AND ${consultations.status} = 'cancelled' AND ${consultations.cancelledAt} = ${now.getTime()})`),
  ]);
  if (updated.length === 0) return { ok: false, reason: "already_taken" };
  const env = context.cloudflare.env;
  await Promise.all([withdrawRequest(env, consultationId), tellParticipants(env, { type: "status", consultationId, status: "cancelled" })]);
  return { ok: true };
}
