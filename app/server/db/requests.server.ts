// Patients' requests: drafts that gather photos, the submit that puts a request in front of doctors,
// and the summaries doctors see.
import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";

import { consultationFiles, consultations, doctors, profiles } from "~/db/schema";
import { type RequestDetails, titleFromComplaint } from "~/domain/consultation-request";
import { type Actor, planTransition } from "~/domain/consultation-status";
import { byQueueOrder, type RequestSummary } from "~/domain/room-events";
import { cleanLine } from "~/domain/text-hygiene";
import type { Database } from "~/server/db/client.server";
import { everyPhotoStored } from "~/server/files.server";

export async function createDraft(db: Database, patientId: string, now: Date) {
  const [draft] = await db
    .insert(consultations)
    .values({ patientId, status: "awaiting_assets", createdAt: now, updatedAt: now })
    .returning({ id: consultations.id });
  return draft!.id;
}

/** The patient's own draft, or undefined (someone else's id finds nothing). */
export async function findOwnDraft(db: Database, draftId: string, patientId: string) {
  return db.query.consultations.findFirst({
    where: and(eq(consultations.id, draftId), eq(consultations.patientId, patientId), eq(consultations.status, "awaiting_assets")),
  });
}

export async function isActiveDoctorCode(db: Database, code: string) {
  const doctor = await db.query.doctors.findFirst({
    columns: { userId: true },
    where: and(eq(doctors.doctorCode, code), eq(doctors.status, "active")),
  });
  return doctor !== undefined;
}

export type SubmitOutcome =
  | { ok: true; consultationId: string; summary: Omit<RequestSummary, "patientFirstName"> }
  /** The same form arrived again (a double click, a retry): the request it made the first time. */
  | { ok: true; consultationId: string; repeated: true }
  | { ok: false; reason: "draft_not_found" | "photos_missing" };

/**
 * Puts the request in front of doctors: a draft becomes `pending` once every photo is stored; a
 * request without photos is created `pending`. One form makes one request however often it arrives:
 * a draft moves once (conditional update), and a request without photos carries the form's
 * submission key, unique per patient.
 */
export async function submitRequest(
  db: Database,
  bucket: R2Bucket,
  patientId: string,
  details: RequestDetails,
  now: Date,
): Promise<SubmitOutcome> {
  const words = {
    title: titleFromComplaint(details.chiefComplaint),
    mainConcern: details.chiefComplaint,
    medicalHistory: details.knownIllnesses,
    additionalComments: details.additionalComments,
    requestedDoctorCode: details.doctorCode,
    priority: details.priority,
  };
  if (!details.draftId) {
    const submissionKey = details.submissionKey ?? crypto.randomUUID();
    const [created] = await db
      .insert(consultations)
      .values({ patientId, status: "pending", ...words, submissionKey, createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: [consultations.patientId, consultations.submissionKey] })
      .returning({ id: consultations.id });
    if (created) return { ok: true, consultationId: created.id, summary: summaryOf(created.id, words, now, 0) };
    const earlier = await db.query.consultations.findFirst({
      columns: { id: true },
      where: and(eq(consultations.patientId, patientId), eq(consultations.submissionKey, submissionKey)),
    });
    return { ok: true, consultationId: earlier!.id, repeated: true };
  }
  const draft = await db.query.consultations.findFirst({
    where: and(eq(consultations.id, details.draftId), eq(consultations.patientId, patientId)),
  });
  if (!draft) return { ok: false, reason: "draft_not_found" };
  const actor: Actor = { kind: "user", userId: patientId, role: "patient" };
  const plan = planTransition(draft, "submit", actor, now);
  if (!plan.ok)
    return plan.refusal === "wrong_status"
      ? { ok: true, consultationId: draft.id, repeated: true }
      : { ok: false, reason: "draft_not_found" };
  const photos = await everyPhotoStored(db, bucket, draft.id);
  if (!photos.allStored) return { ok: false, reason: "photos_missing" };
  // The request waits for a doctor from now on, not from when its first photo arrived.
  const [updated] = await db
    .update(consultations)
    .set({ ...words, ...plan.changes, createdAt: now })
    .where(and(eq(consultations.id, draft.id), eq(consultations.status, plan.from)))
    .returning({ id: consultations.id });
  if (!updated) return { ok: true, consultationId: draft.id, repeated: true };
  return { ok: true, consultationId: updated.id, summary: summaryOf(updated.id, words, now, photos.count) };
}

/** The lobby's summary of a request just submitted, from what the submit already knows (no extra reads). */
function summaryOf(
  id: string,
  words: { title: string; priority: RequestSummary["priority"]; requestedDoctorCode: string | null },
  now: Date,
  photoCount: number,
) {
  return {
    id,
    title: words.title,
    priority: words.priority,
    waitingSince: now.getTime(),
    photoCount,
    requestedDoctorCode: words.requestedDoctorCode,
  };
}

const summaryColumns = {
  id: consultations.id,
  title: consultations.title,
  priority: consultations.priority,
  createdAt: consultations.createdAt,
  updatedAt: consultations.updatedAt,
  requestedDoctorCode: consultations.requestedDoctorCode,
  patientFirstName: profiles.firstName,
};

async function withPhotoCounts(
  db: Database,
  rows: Array<{
    id: string;
    title: string;
    priority: RequestSummary["priority"];
    createdAt: Date;
    requestedDoctorCode: string | null;
    patientFirstName: string | null;
  }>,
): Promise<RequestSummary[]> {
  if (rows.length === 0) return [];
  const photoCounts = new Map<string, number>();
  for (let start = 0; start < rows.length; start += 90) {
    const ids = rows.slice(start, start + 90).map((row) => row.id);
    const counted = await db
      .select({ consultationId: consultationFiles.consultationId, photos: count() })
      .from(consultationFiles)
      .where(and(inArray(consultationFiles.consultationId, ids), eq(consultationFiles.kind, "photo"), isNull(consultationFiles.deletedAt)))
      .groupBy(consultationFiles.consultationId);
    for (const row of counted) photoCounts.set(row.consultationId, row.photos);
  }
  return rows
    .map((row) => ({
      id: row.id,
      // Cleaned again on the way out, for rows written before input was cleaned.
      title: cleanLine(row.title),
      priority: row.priority,
      waitingSince: row.createdAt.getTime(),
      patientFirstName: cleanLine(row.patientFirstName ?? ""),
      photoCount: photoCounts.get(row.id) ?? 0,
      requestedDoctorCode: row.requestedDoctorCode,
    }))
    .sort(byQueueOrder);
}

/** Every request waiting for a doctor, in queue order. */
export async function pendingRequestSummaries(db: Database): Promise<RequestSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
    .where(eq(consultations.status, "pending"))
    .orderBy(sql`CASE ${consultations.priority} WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 ELSE 2 END`, asc(consultations.createdAt));
  return withPhotoCounts(db, rows);
}

export async function requestSummary(db: Database, consultationId: string): Promise<RequestSummary | null> {
  const rows = await db
    .select(summaryColumns)
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
    .where(and(eq(consultations.id, consultationId), eq(consultations.status, "pending")));
  return (await withPhotoCounts(db, rows))[0] ?? null;
}

export async function pendingRequestCount(db: Database) {
  const [row] = await db.select({ waiting: count() }).from(consultations).where(eq(consultations.status, "pending"));
  return row?.waiting ?? 0;
}

export async function doctorCodeOf(db: Database, doctorId: string) {
  const doctor = await db.query.doctors.findFirst({ columns: { doctorCode: true }, where: eq(doctors.userId, doctorId) });
  return doctor?.doctorCode ?? null;
}
