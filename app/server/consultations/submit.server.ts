// A patient's request: a draft that gathers photos first, and the submit that puts it in front of the
// doctors. One form makes one request however often it arrives (a draft moves once; a request without
// photos carries the form's one-time key), and a patient has at most 3 requests waiting at once: both
// hold under any concurrency, since each is a condition of the very statement that writes.
import { and, eq, sql } from "drizzle-orm";

import { consultations } from "~/db/schema";
import { MAX_WAITING_REQUESTS_PER_PATIENT } from "~/domain/constants";
import { intakeOf, type RequestDetails, type StoredIntake, storedIntakeOf, titleFromComplaint } from "~/domain/consultation-request";
import type { RequestSummary } from "~/realtime/protocol";
import type { Database } from "~/server/db/client.server";
import { everyPhotoStored } from "~/server/files.server";
import { triageLines } from "~/server/intake-words.server";

import { auditOfMove, createConsultation, moveConsultation, type MovedByThisCall } from "./move.server";

export type SubmitOutcome =
  | { ok: true; consultationId: string; summary: Omit<RequestSummary, "patientFirstName"> }
  /** The same form arrived again (a double click, a retry): the request it made the first time. */
  | { ok: true; consultationId: string; repeated: true }
  | { ok: false; reason: "draft_not_found" | "photos_missing" | "too_many_waiting" };

/** True while the patient has fewer than the allowed requests waiting: a condition inside a statement. */
const hasRoomToWait = (patientId: string) =>
  sql`(SELECT count(*) FROM ${consultations} waiting WHERE waiting.patient_id = ${patientId} AND waiting.status = 'pending') < ${MAX_WAITING_REQUESTS_PER_PATIENT}`;

/** Puts the request in front of doctors: a draft becomes `pending` once every photo is stored. */
export async function submitRequest(
  db: Database,
  bucket: R2Bucket,
  patientId: string,
  details: RequestDetails,
  { now, ipAddress }: { now: Date; ipAddress: string | null },
): Promise<SubmitOutcome> {
  const audit = (moved: MovedByThisCall) => [
    auditOfMove(db, moved, { actorId: patientId, action: "consultation.submitted", ipAddress, now }),
  ];
  const words = {
    title: titleFromComplaint(details.chiefComplaint),
    mainConcern: details.chiefComplaint,
    medicalHistory: details.knownIllnesses,
    additionalComments: details.additionalComments,
    requestedDoctorCode: details.doctorCode,
    priority: details.priority,
    ...storedIntakeOf(details),
  };
  if (!details.draftId) return createRequest(db, patientId, words, details.submissionKey ?? crypto.randomUUID(), now, audit);

  const draft = await db.query.consultations.findFirst({
    where: and(eq(consultations.id, details.draftId), eq(consultations.patientId, patientId)),
  });
  if (!draft) return { ok: false, reason: "draft_not_found" };
  if (draft.status !== "awaiting_assets") return { ok: true, consultationId: draft.id, repeated: true };
  const photos = await everyPhotoStored(db, bucket, draft.id);
  if (!photos.allStored) return { ok: false, reason: "photos_missing" };
  const outcome = await moveConsultation(db, {
    consultationId: draft.id,
    move: "submit",
    actor: { kind: "user", userId: patientId, role: "patient" },
    now,
    // The request waits for a doctor from now on, not from when its first photo arrived.
    alsoSet: { ...words, createdAt: now },
    onlyIf: hasRoomToWait(patientId),
    alsoWrite: (_db, moved) => audit(moved),
  });
  if (outcome.ok) return { ok: true, consultationId: draft.id, summary: await summaryOf(draft.id, words, now, photos.count) };
  if (outcome.reason === "not_permitted" || outcome.reason === "not_found") return { ok: false, reason: "draft_not_found" };
  // Not moved: a racing submit of the same form moved it, or the patient already has enough waiting.
  const after = await db.query.consultations.findFirst({ columns: { status: true }, where: eq(consultations.id, draft.id) });
  return after?.status === "awaiting_assets"
    ? { ok: false, reason: "too_many_waiting" }
    : { ok: true, consultationId: draft.id, repeated: true };
}

type Words = Pick<
  typeof consultations.$inferInsert,
  "title" | "mainConcern" | "medicalHistory" | "additionalComments" | "requestedDoctorCode" | "priority"
> &
  StoredIntake;

/** A request without photos: created waiting for a doctor, once per form, within the waiting cap. */
async function createRequest(
  db: Database,
  patientId: string,
  words: Words & { title: string; priority: RequestSummary["priority"] },
  submissionKey: string,
  now: Date,
  audit: (moved: MovedByThisCall) => ReturnType<typeof auditOfMove>[],
): Promise<SubmitOutcome> {
  const created = await createConsultation(db, {
    creation: "request",
    patientId,
    actor: { kind: "user", userId: patientId, role: "patient" },
    now,
    values: { ...words, submissionKey },
    onlyIf: hasRoomToWait(patientId),
    alsoWrite: (_db, moved) => audit(moved),
  });
  if (created.ok)
    return { ok: true, consultationId: created.consultationId, summary: await summaryOf(created.consultationId, words, now, 0) };
  // Not created: the same form made it already (its one-time key), or the patient has enough waiting.
  const repeated = await db.query.consultations.findFirst({
    columns: { id: true },
    where: and(eq(consultations.patientId, patientId), eq(consultations.submissionKey, submissionKey)),
  });
  return repeated ? { ok: true, consultationId: repeated.id, repeated: true } : { ok: false, reason: "too_many_waiting" };
}

/** The lobby's summary of a request just submitted, from what the submit already knows (no extra reads). */
async function summaryOf(
  id: string,
  words: { title: string; priority: RequestSummary["priority"]; requestedDoctorCode?: string | null } & StoredIntake,
  now: Date,
  photoCount: number,
) {
  return {
    triage: await triageLines(intakeOf(words)),
    id,
    title: words.title,
    priority: words.priority,
    waitingSince: now.getTime(),
    photoCount,
    requestedDoctorCode: words.requestedDoctorCode ?? null,
  };
}
