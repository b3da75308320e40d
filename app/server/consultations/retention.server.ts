// The retention of a closed account's consultation records (docs/decisions/0037): the date is set when
// the patient closes the account, and the scheduled job purges each record once that date has passed.
// A purged record keeps only what the money records and the counts need (its id, people, status and
// dates); its words, summary, intake, photos (R2 objects), chat (the room's storage), rating words and
// notifications go. Safe to run twice at once: R2 and the room forget idempotently, and the one
// conditional UPDATE that marks the record purged decides who writes the audit entry.
import { and, asc, eq, isNull, lte, type SQL, sql } from "drizzle-orm";

import { consultationFiles, consultations, notifications, patientFeedback } from "~/db/schema";
import { MAX_RECORDS_PURGED_PER_RUN } from "~/domain/retention";
import { auditIfChanged } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";
import { forgetChat } from "~/server/rooms.server";

/** What a purged record's required text columns hold (the table's checks want them non-empty). */
const PURGED_TEXT = "-";

/**
 * The statement, for the closing's batch, that dates the purge of every consultation of `patientId`
 * (drafts aside: the closing deletes them), written only if `closedNow` holds as the batch runs.
 */
export function schedulePurgeStatement(db: Database, patientId: string, purgeAfter: Date, closedNow: SQL) {
  return db
    .update(consultations)
    .set({ purgeAfter })
    .where(
      and(
        eq(consultations.patientId, patientId),
        isNull(consultations.purgedAt),
        sql`${consultations.status} <> 'awaiting_assets'`,
        closedNow,
      ),
    );
}

/** Deletes the patient's drafts (their photos first, from R2): a closed account has no requests under way. */
export async function deletePatientDrafts(db: Database, bucket: R2Bucket, patientId: string) {
  const drafts = await db
    .select({ id: consultations.id })
    .from(consultations)
    .where(and(eq(consultations.patientId, patientId), eq(consultations.status, "awaiting_assets")));
  for (const draft of drafts) {
    const files = await db
      .select({ storageKey: consultationFiles.storageKey })
      .from(consultationFiles)
      .where(eq(consultationFiles.consultationId, draft.id));
    if (files.length > 0) await bucket.delete(files.map((file) => file.storageKey));
    await db.delete(consultations).where(and(eq(consultations.id, draft.id), eq(consultations.status, "awaiting_assets")));
  }
  return drafts.length;
}

/** Purges one record: its objects and chat first (a marked record must have nothing left), then its rows. */
async function purgeRecord(env: Env, db: Database, consultationId: string, now: Date) {
  const files = await db
    .select({ storageKey: consultationFiles.storageKey })
    .from(consultationFiles)
    .where(eq(consultationFiles.consultationId, consultationId));
  // Photos the patient deleted earlier are gone already; deleting a missing key is no error.
  if (files.length > 0) await env.FILES.delete(files.map((file) => file.storageKey));
  await forgetChat(env, consultationId);
  const runId = crypto.randomUUID();
  const [, , , marked] = await db.batch([
    db.delete(consultationFiles).where(eq(consultationFiles.consultationId, consultationId)),
    db.delete(notifications).where(eq(notifications.consultationId, consultationId)),
    db
      .update(patientFeedback)
      .set({ feedbackMessage: "", allowContact: false, contactMethod: null, contactValue: null })
      .where(eq(patientFeedback.consultationId, consultationId)),
    db
      .update(consultations)
      .set({
        purgedAt: now,
        lastMoveId: runId,
        title: PURGED_TEXT,
        mainConcern: PURGED_TEXT,
        medicalHistory: "",
        additionalComments: "",
        patientAgeYears: null,
        patientSex: null,
        bodyAreas: "",
        durationAmount: null,
        durationUnit: null,
        symptoms: "",
        treatmentsTried: "",
        allergies: "",
        pregnancy: null,
        declineNote: null,
        observations: null,
        diagnosis: null,
        treatmentPlan: null,
        updatedAt: now,
      })
      .where(and(eq(consultations.id, consultationId), isNull(consultations.purgedAt), lte(consultations.purgeAfter, now)))
      .returning({ id: consultations.id }),
    auditIfChanged(db, consultations, and(eq(consultations.id, consultationId), eq(consultations.lastMoveId, runId)), {
      action: "record.purged",
      actorId: null,
      targetType: "consultation",
      targetId: consultations.id,
      details: sql<string>`json_object('files', ${files.length})`,
      ipAddress: null,
      now,
    }),
  ]);
  return marked.length === 1;
}

/** The scheduled job's step: purges the records whose date has passed, a bounded number per run. */
export async function purgeDueRecords(env: Env, db: Database, now: Date) {
  const due = await db
    .select({ id: consultations.id })
    .from(consultations)
    .where(and(lte(consultations.purgeAfter, now), isNull(consultations.purgedAt)))
    .orderBy(asc(consultations.purgeAfter))
    .limit(MAX_RECORDS_PURGED_PER_RUN);
  let purged = 0;
  for (const { id } of due) {
    try {
      if (await purgeRecord(env, db, id, now)) purged += 1;
    } catch (error) {
      // One record that fails (R2 or the room unreachable) is tried again next run; the others go on.
      console.error(JSON.stringify({ event: "record_purge_failed", consultationId: id, error: String(error) }));
    }
  }
  return purged;
}
