// An admin reads a consultation only after saying why. The opening is written to the audit log with the
// reason, and that entry is itself the grant: for OPENING_GRANT_MS the same admin may read that
// consultation again (a reload, the back button, its chat's photos) without a second reason; after that
// they are asked again. Nothing else stores the grant, so it cannot outlive or bypass its audit entry
// (docs/decisions/0019-admin-consultation-opening.md).
import { and, desc, eq, gte } from "drizzle-orm";

import { auditLog } from "~/db/schema";
import { OPENING_GRANT_MS } from "~/domain/admin-records";
import { recordAudit } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";

const OPENED = "admin.consultation_opened";

/** The admin's latest opening of the consultation still in force, with its reason; or null. */
export async function openingInForce(db: Database, adminId: string, consultationId: string, now: Date) {
  const [opening] = await db
    .select({ createdAt: auditLog.createdAt, details: auditLog.details })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.targetType, "consultation"),
        eq(auditLog.targetId, consultationId),
        eq(auditLog.action, OPENED),
        eq(auditLog.actorId, adminId),
        gte(auditLog.createdAt, new Date(now.getTime() - OPENING_GRANT_MS)),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  if (!opening) return null;
  const reason = typeof opening.details?.reason === "string" ? opening.details.reason : "";
  return { reason, until: new Date(opening.createdAt.getTime() + OPENING_GRANT_MS).toISOString() };
}

export async function recordOpening(db: Database, request: Request, adminId: string, consultationId: string, reason: string) {
  await recordAudit(db, request, {
    action: OPENED,
    actorId: adminId,
    targetType: "consultation",
    targetId: consultationId,
    details: { reason },
  });
}
