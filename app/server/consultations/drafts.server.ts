// Drafts: a request being written, kept on the server so nothing typed or uploaded is lost between
// the wizard's steps. Photos make one; so does going back from the details step, which keeps the words;
// so does starting again from a request declined for its photos, which copies its words. The scheduled
// sweep deletes those abandoned before they were submitted (found by findAbandonedDrafts).
import { and, eq, inArray } from "drizzle-orm";

import { consultations } from "~/db/schema";
import type { DraftWords } from "~/domain/consultation-request";
import { inSlices } from "~/server/db/chunks.server";
import type { Database } from "~/server/db/client.server";

import { createConsultation } from "./move.server";

/** A new draft of the patient's own (the state machine lets a patient make one for themselves). */
export async function createDraft(db: Database, patientId: string, now: Date, words: Partial<DraftWords> = {}) {
  const outcome = await createConsultation(db, {
    creation: "draft",
    patientId,
    actor: { kind: "user", userId: patientId, role: "patient" },
    now,
    values: words,
  });
  if (!outcome.ok) throw new Error(`A draft could not be created: ${outcome.reason}`);
  return outcome.consultationId;
}

/**
 * Starts again from a request a doctor declined because its photos were not clear: a new draft with
 * the same words, waiting for new photos. Null for anything else (someone else's, or another reason).
 */
export async function startDraftFrom(db: Database, patientId: string, declinedId: string, now: Date) {
  const declined = await db.query.consultations.findFirst({
    where: and(eq(consultations.id, declinedId), eq(consultations.patientId, patientId), eq(consultations.declineReason, "photos_unclear")),
  });
  if (!declined) return null;
  return createDraft(db, patientId, now, draftWordsFrom(declined));
}

/** A draft's words (and nothing else) out of a row or a parsed form. */
function draftWordsFrom(words: DraftWords): DraftWords {
  const { mainConcern, medicalHistory, additionalComments, requestedDoctorCode, priority } = words;
  const { patientAgeYears, patientSex, bodyAreas, durationAmount, durationUnit, symptoms, treatmentsTried, allergies, pregnancy } = words;
  return {
    mainConcern,
    medicalHistory,
    additionalComments,
    requestedDoctorCode,
    priority,
    patientAgeYears,
    patientSex,
    bodyAreas,
    durationAmount,
    durationUnit,
    symptoms,
    treatmentsTried,
    allergies,
    pregnancy,
  };
}

/** Keeps what the patient typed in the patient's own draft (never in a submitted request). */
export async function saveDraftWords(db: Database, draftId: string, patientId: string, words: DraftWords, now: Date) {
  const saved = await db
    .update(consultations)
    .set({
      mainConcern: words.mainConcern,
      medicalHistory: words.medicalHistory,
      additionalComments: words.additionalComments,
      requestedDoctorCode: words.requestedDoctorCode,
      priority: words.priority,
      patientAgeYears: words.patientAgeYears,
      patientSex: words.patientSex,
      bodyAreas: words.bodyAreas,
      durationAmount: words.durationAmount,
      durationUnit: words.durationUnit,
      symptoms: words.symptoms,
      treatmentsTried: words.treatmentsTried,
      allergies: words.allergies,
      pregnancy: words.pregnancy,
      updatedAt: now,
    })
    .where(and(eq(consultations.id, draftId), eq(consultations.patientId, patientId), eq(consultations.status, "awaiting_assets")))
    .returning({ id: consultations.id });
  return saved.length === 1;
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
