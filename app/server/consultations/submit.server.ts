// A patient's request: a draft that gathers photos first, and the submit that puts it in front of the
// doctors. One form makes one request however often it arrives (a draft moves once; a request without
// photos carries the form's one-time key), and a patient has at most 3 requests waiting at once: both
// hold under any concurrency, since each is a condition of the very statement that writes. A follow-up
// (checked by the caller) is written with the consultation it continues and the doctor it waits for.
import { and, eq, sql } from "drizzle-orm";

import { consultations } from "~/db/schema";
import { MAX_WAITING_REQUESTS_PER_PATIENT } from "~/domain/constants";
import { intakeOf, type RequestDetails, type StoredIntake, storedIntakeOf, titleFromComplaint } from "~/domain/consultation-request";
import type { followUpColumns } from "~/domain/follow-ups";
import type { Database } from "~/server/db/client.server";
import { everyPhotoStored } from "~/server/files.server";
import { triageLines } from "~/server/intake-words.server";
import type { QueuedRequest } from "~/server/waiting-requests.server";

import { auditOfMove, createConsultation, moveConsultation, type MovedByThisCall } from "./move.server";

/** What the lobby is told of a request just submitted, but the patient's name (the caller has it). */
type Submitted = Omit<QueuedRequest, "summary"> & { summary: Omit<QueuedRequest["summary"], "patientFirstName"> };

export type SubmitOutcome =
  | { ok: true; consultationId: string; submitted: Submitted }
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
  { now, ipAddress, followUp = null }: { now: Date; ipAddress: string | null; followUp?: ReturnType<typeof followUpColumns> | null },
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
    ...followUp,
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
  if (outcome.ok) return { ok: true, consultationId: draft.id, submitted: await submittedOf(draft.id, words, now, photos.count) };
  if (outcome.reason === "not_permitted" || outcome.reason === "not_found") return { ok: false, reason: "draft_not_found" };
  // Not moved: a racing submit of the same form moved it, or the patient already has enough waiting.
  const after = await db.query.consultations.findFirst({ columns: { status: true }, where: eq(consultations.id, draft.id) });
  return after?.status === "awaiting_assets"
    ? { ok: false, reason: "too_many_waiting" }
    : { ok: true, consultationId: draft.id, repeated: true };
}

type Words = Pick<
  typeof consultations.$inferInsert,
  | "title"
  | "mainConcern"
  | "medicalHistory"
  | "additionalComments"
  | "requestedDoctorCode"
  | "priority"
  | "followUpOfId"
  | "reservedForDoctorId"
  | "reservedUntil"
> &
  StoredIntake;

/** A request without photos: created waiting for a doctor, once per form, within the waiting cap. */
async function createRequest(
  db: Database,
  patientId: string,
  words: Words & { title: string; priority: Submitted["summary"]["priority"] },
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
    return { ok: true, consultationId: created.consultationId, submitted: await submittedOf(created.consultationId, words, now, 0) };
  // Not created: the same form made it already (its one-time key), or the patient has enough waiting.
  const repeated = await db.query.consultations.findFirst({
    columns: { id: true },
    where: and(eq(consultations.patientId, patientId), eq(consultations.submissionKey, submissionKey)),
  });
  return repeated ? { ok: true, consultationId: repeated.id, repeated: true } : { ok: false, reason: "too_many_waiting" };
}

/** The lobby's news of a request just submitted, from what the submit already knows (no extra reads). */
async function submittedOf(
  id: string,
  words: Words & { title: string; priority: Submitted["summary"]["priority"] },
  now: Date,
  photoCount: number,
): Promise<Submitted> {
  return {
    summary: {
      triage: await triageLines(intakeOf(words)),
      id,
      title: words.title,
      priority: words.priority,
      waitingSince: now.getTime(),
      photoCount,
      requestedDoctorCode: words.requestedDoctorCode ?? null,
    },
    followUpOfId: words.followUpOfId ?? null,
    reservedForDoctorId: words.reservedForDoctorId ?? null,
    reservedUntil: words.reservedUntil?.getTime() ?? null,
  };
}
