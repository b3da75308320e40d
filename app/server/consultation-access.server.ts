// Who may see a consultation (and its photos): its patient; doctors while it waits for one; its
// assigned doctor; admins. Everyone else is told it does not exist. Each look by a doctor or an admin
// is written to the audit log.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";

import { consultations } from "~/db/schema";
import { isUuid } from "~/domain/ids";
import { type AuditAction, recordAudit } from "~/server/audit.server";
import type { SessionUser } from "~/server/auth/session.server";

export type ConsultationRow = typeof consultations.$inferSelect;

function mayView(user: SessionUser, consultation: ConsultationRow): boolean {
  switch (user.role) {
    case "patient":
      return consultation.patientId === user.userId;
    case "doctor":
      return user.doctorStatus === "active" && (consultation.status === "pending" || consultation.doctorId === user.userId);
    case "admin":
      return true;
  }
}

/** The consultation if `user` may see it, else a 404 thrown (no hint that it exists). */
export async function requireConsultationAccess(
  context: AppLoadContext,
  request: Request,
  user: SessionUser,
  consultationId: string,
  audit: { action: AuditAction; targetType: string; targetId: string } = {
    action: "consultation.viewed",
    targetType: "consultation",
    targetId: consultationId,
  },
): Promise<ConsultationRow> {
  if (!isUuid(consultationId)) throw new Response("Not Found", { status: 404 });
  const consultation = await context.db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) });
  if (!consultation || !mayView(user, consultation)) throw new Response("Not Found", { status: 404 });
  if (user.role !== "patient") await recordAudit(context.db, request, { actorId: user.userId, ...audit });
  return consultation;
}
