// The doctor's summary, saved by the assigned doctor while the consultation is theirs and not yet
// completed: one conditional UPDATE, so a save racing the end (or another doctor's forged post) writes nothing.
import { and, eq, inArray } from "drizzle-orm";

import { consultations } from "~/db/schema";
import type { ClosingRefusal, Summary } from "~/domain/consultation-closing";
import { ACTIVE_STATUSES } from "~/domain/consultation-status";
import { isUuid } from "~/domain/ids";
import type { SessionUser } from "~/server/auth/session.server";
import type { Database } from "~/server/db/client.server";

export type ClosingOutcome = { ok: true } | { ok: false; reason: ClosingRefusal };

/** Why `doctor` may not close or edit `consultationId` now, as they should hear it. */
export async function closingRefusal(db: Database, doctor: SessionUser, consultationId: string): Promise<ClosingRefusal> {
  const current = await db.query.consultations.findFirst({
    columns: { status: true, doctorId: true },
    where: eq(consultations.id, consultationId),
  });
  if (!current || current.doctorId !== doctor.userId) return "not_found";
  return current.status === "completed" ? "already_completed" : "not_in_progress";
}

export async function saveSummary(db: Database, doctor: SessionUser, consultationId: string, summary: Summary): Promise<ClosingOutcome> {
  if (!isUuid(consultationId)) return { ok: false, reason: "not_found" };
  const saved = await db
    .update(consultations)
    .set({ observations: summary.observations, diagnosis: summary.diagnosis, treatmentPlan: summary.treatmentPlan, updatedAt: new Date() })
    .where(
      and(eq(consultations.id, consultationId), eq(consultations.doctorId, doctor.userId), inArray(consultations.status, ACTIVE_STATUSES)),
    )
    .returning({ id: consultations.id });
  return saved.length === 1 ? { ok: true } : { ok: false, reason: await closingRefusal(db, doctor, consultationId) };
}
