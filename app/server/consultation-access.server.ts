// Finding a consultation for someone who asked to see it, under the one rule in
// app/domain/consultation-access.ts. Those it does not allow are told it does not exist. Each look by a
// doctor or an admin is written to the audit log.
import type { AppLoadContext } from "@remix-run/cloudflare";

import type { consultations } from "~/db/schema";
import { type ConsultationParties, mayViewConsultation, onceWaitingFor, type Viewer } from "~/domain/consultation-access";
import { type DecisionRefusal, whyNotWaiting } from "~/domain/consultation-decisions";
import { type AuditAction, recordAudit } from "~/server/audit.server";
import type { SessionUser } from "~/server/auth/session.server";
import { findConsultationById } from "~/server/db/consultations.server";

export type ConsultationRow = typeof consultations.$inferSelect;

interface AuditedLook {
  action: AuditAction;
  targetType: string;
  targetId: string;
}

const notFound = () => new Response("Not Found", { status: 404 });

async function audited(context: AppLoadContext, request: Request, user: SessionUser, look: AuditedLook) {
  if (user.role !== "patient") await recordAudit(context.db, request, { actorId: user.userId, ...look });
}

/** The consultation if `user` may see it (by `rule`, the domain's one by default), else a 404 thrown (no hint that it exists). */
export async function requireConsultationAccess(
  context: AppLoadContext,
  request: Request,
  user: SessionUser,
  consultationId: string,
  look: AuditedLook = { action: "consultation.viewed", targetType: "consultation", targetId: consultationId },
  rule: (viewer: Viewer, consultation: ConsultationParties) => boolean = mayViewConsultation,
): Promise<ConsultationRow> {
  const consultation = await findConsultationById(context.db, consultationId);
  if (!consultation || !rule(user, consultation)) throw notFound();
  await audited(context, request, user, look);
  return consultation;
}

/**
 * For a doctor: the consultation if they may see it, or why a request they saw waiting is no longer
 * theirs to see (taken, declined, withdrawn), without any of its contents. Else a 404 thrown.
 */
export async function consultationOrWhyGone(
  context: AppLoadContext,
  request: Request,
  doctor: SessionUser,
  consultationId: string,
): Promise<{ consultation: ConsultationRow; gone: null } | { consultation: null; gone: DecisionRefusal }> {
  const consultation = await findConsultationById(context.db, consultationId);
  if (!consultation) throw notFound();
  if (onceWaitingFor(doctor, consultation)) return { consultation: null, gone: whyNotWaiting(consultation) };
  if (!mayViewConsultation(doctor, consultation)) throw notFound();
  await audited(context, request, doctor, { action: "consultation.viewed", targetType: "consultation", targetId: consultation.id });
  return { consultation, gone: null };
}
