// Reading consultations (every write is app/server/consultations/'s).
import { and, eq, inArray, isNotNull, lt, or } from "drizzle-orm";

import { consultationFiles, consultations, users } from "~/db/schema";
import { isUuid } from "~/domain/ids";
import { inSlices } from "~/server/db/chunks.server";
import type { Database } from "~/server/db/client.server";

/** The consultation with this id, or undefined (an id that is not a UUID finds nothing). */
export async function findConsultationById(db: Database, id: string | undefined) {
  return isUuid(id) ? db.query.consultations.findFirst({ where: eq(consultations.id, id) }) : undefined;
}

/**
 * Drafts (`awaiting_assets`) created before `cutoff`, and any draft of a closed account (closing
 * deletes them after its batch; one it did not reach is found here), with the storage keys of their files.
 */
export async function findAbandonedDrafts(db: Database, cutoff: Date) {
  const drafts = await db
    .select({ id: consultations.id })
    .from(consultations)
    .innerJoin(users, eq(users.id, consultations.patientId))
    .where(and(eq(consultations.status, "awaiting_assets"), or(lt(consultations.createdAt, cutoff), isNotNull(users.closedAt))));
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

/** The patient's own consultation, or undefined (someone else's id finds nothing). */
export async function findOwnConsultation(db: Database, id: string | undefined, patientId: string) {
  return isUuid(id)
    ? db.query.consultations.findFirst({ where: and(eq(consultations.id, id), eq(consultations.patientId, patientId)) })
    : undefined;
}
