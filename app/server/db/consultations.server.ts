// Consultation queries. Every status change goes through `applyConsultationMove`, which asks the
// domain's state machine and applies the plan with one conditional UPDATE: of any number of racing
// callers, only the one whose update still finds the expected status wins.
import { and, eq, inArray, lt } from "drizzle-orm";

import { consultationFiles, consultations } from "~/db/schema";
import { type Actor, type ConsultationMove, planTransition, type TransitionRefusal } from "~/domain/consultation-status";
import { inSlices } from "~/server/db/chunks.server";
import type { Database } from "~/server/db/client.server";

export type MoveOutcome =
  { ok: true; consultation: typeof consultations.$inferSelect } | { ok: false; reason: TransitionRefusal | "not_found" | "lost_race" };

export async function applyConsultationMove(
  db: Database,
  consultationId: string,
  move: ConsultationMove,
  actor: Actor,
  now: Date,
): Promise<MoveOutcome> {
  const current = await db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) });
  if (!current) return { ok: false, reason: "not_found" };
  const plan = planTransition(current, move, actor, now);
  if (!plan.ok) return { ok: false, reason: plan.refusal };
  const [updated] = await db
    .update(consultations)
    .set(plan.changes)
    .where(and(eq(consultations.id, consultationId), eq(consultations.status, plan.from)))
    .returning();
  return updated ? { ok: true, consultation: updated } : { ok: false, reason: "lost_race" };
}

/** Drafts (`awaiting_assets`) created before `cutoff`, with the storage keys of their files. */
export async function findAbandonedDrafts(db: Database, cutoff: Date) {
  const drafts = await db
    .select({ id: consultations.id })
    .from(consultations)
    .where(and(eq(consultations.status, "awaiting_assets"), lt(consultations.createdAt, cutoff)));
  if (drafts.length === 0) return [];
  const ids = drafts.map((draft) => draft.id);
  const files: { consultationId: string; storageKey: string }[] = [];
  for (const slice of inSlices(ids)) {
    files.push(
      ...(await db
        .select({ consultationId: consultationFiles.consultationId, storageKey: consultationFiles.storageKey })
        .from(consultationFiles)
        .where(inArray(consultationFiles.consultationId, slice))),
    );
  }
  return ids.map((id) => ({
    id,
    storageKeys: files.filter((file) => file.consultationId === id).map((file) => file.storageKey),
  }));
}

/** Deletes drafts that are still drafts; their file rows go with them (ON DELETE CASCADE). */
export async function deleteDrafts(db: Database, ids: string[]) {
  let deletedCount = 0;
  for (const slice of inSlices(ids)) {
    const deleted = await db
      .delete(consultations)
      .where(and(inArray(consultations.id, slice), eq(consultations.status, "awaiting_assets")))
      .returning({ id: consultations.id });
    deletedCount += deleted.length;
  }
  return deletedCount;
}
