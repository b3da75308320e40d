// The doctor's summary, saved by the assigned doctor while the consultation is theirs and not yet
// completed: one conditional UPDATE, so a save racing the end (or another doctor's forged post) writes nothing.
import { and, eq, inArray } from "drizzle-orm";

import { consultations } from "~/db/schema";
import type { ClosingRefusal } from "~/domain/consultation-closing";
import { ACTIVE_STATUSES } from "~/domain/consultation-status";
import { newPhotosDueAt } from "~/domain/follow-ups";
import { isUuid } from "~/domain/ids";
import type { Summary } from "~/domain/summary-schema";
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

/**
 * The summary's columns as written at `now`: the new photos fall due that many days from now (the end
 * writes them again from its own moment, and only a completed consultation's reminder is ever sent).
 */
export function summaryColumns(summary: Summary, now: Date) {
  return {
    observations: summary.observations,
    diagnosis: summary.diagnosis,
    treatmentPlan: summary.treatmentPlan,
    newPhotosDueAt: summary.newPhotosInDays === undefined ? null : newPhotosDueAt(summary.newPhotosInDays, now),
  };
}

export async function saveSummary(db: Database, doctor: SessionUser, consultationId: string, summary: Summary): Promise<ClosingOutcome> {
  if (!isUuid(consultationId)) return { ok: false, reason: "not_found" };
  const now = new Date();
  const saved = await db
    .update(consultations)
    .set({
      observations: summary.observations,
      diagnosis: summary.diagnosis,
      treatmentPlan: summary.treatmentPlan,
      newPhotosDueAt: summaryColumns(summary, now).newPhotosDueAt,
      updatedAt: now,
    })
    .where(
      and(eq(consultations.id, consultationId), eq(consultations.doctorId, doctor.userId), inArray(consultations.status, ACTIVE_STATUSES)),
    )
    .returning({ id: consultations.id });
  return saved.length === 1 ? { ok: true } : { ok: false, reason: await closingRefusal(db, doctor, consultationId) };
}
