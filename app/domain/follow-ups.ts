// Follow-ups: a patient asks the doctor of a completed consultation again. The new request names the
// one it continues and waits for that doctor alone for as long as Qoda promises an answer; after that
// every doctor may take it. A doctor may also ask, in the summary, for new photos in a number of days:
// the patient is reminded that day, with a way to send them as a follow-up.

// With its extension: the demo seed runs this module under Node as it is.
import { DOCTOR_RESPONSE_PROMISE_MINUTES } from "./constants.ts";
import type { ConsultationStatus } from "./consultation-status";

const DAY_MS = 24 * 60 * 60_000;

/** A follow-up may be asked this many days after the consultation ended (or after the day the doctor asked for new photos). */
export const FOLLOW_UP_WINDOW_DAYS = 30;
/** A follow-up waits for its doctor alone this long: the answer time every request is promised. */
const FOLLOW_UP_RESERVATION_MS = DOCTOR_RESPONSE_PROMISE_MINUTES * 60_000;
/** "Send me new photos in N days": N within these bounds. */
export const NEW_PHOTOS_DAYS = { min: 1, max: 90 } as const;

/** The new-request wizard's address parameter naming the consultation a follow-up continues. */
export const FOLLOW_UP_PARAM = "followUp";

/** Where a patient asks for a follow-up of `consultationId`: the new-request wizard, carrying it. */
export function followUpPath(consultationId: string): string {
  return `/patient/new-consultation?${FOLLOW_UP_PARAM}=${consultationId}`;
}

/** Why a consultation cannot be followed up: not the patient's own (or no such), not completed, too long ago, its doctor gone. */
export type FollowUpRefusal = "not_found" | "not_completed" | "too_late" | "doctor_unavailable";

export interface FollowUpSource {
  patientId: string;
  doctorId: string | null;
  status: ConsultationStatus;
  completedAt: Date | null;
  newPhotosDueAt: Date | null;
}

/**
 * The last moment a follow-up may be asked: 30 days after the end, or, when the doctor asked for new
 * photos later than that, 30 days after the day they asked for (their reminder must still lead somewhere).
 */
export function followUpOpenUntil(source: Pick<FollowUpSource, "completedAt" | "newPhotosDueAt">): Date | null {
  if (!source.completedAt) return null;
  const from = Math.max(source.completedAt.getTime(), source.newPhotosDueAt?.getTime() ?? 0);
  return new Date(from + FOLLOW_UP_WINDOW_DAYS * DAY_MS);
}

/**
 * Whether `patientId` may follow up `source` at `now` (null), or why not. Someone else's consultation
 * is "not found", as if it did not exist.
 */
export function followUpRefusal(
  source: FollowUpSource | null | undefined,
  patientId: string,
  doctorActive: boolean,
  now: Date,
): FollowUpRefusal | null {
  if (!source || source.patientId !== patientId) return "not_found";
  if (source.status !== "completed" || !source.doctorId) return "not_completed";
  const openUntil = followUpOpenUntil(source);
  if (!openUntil || now.getTime() > openUntil.getTime()) return "too_late";
  return doctorActive ? null : "doctor_unavailable";
}

/** A refused follow-up's HTTP status: no such consultation of theirs (404), or not possible (409). */
export function followUpRefusalHttpStatus(refusal: FollowUpRefusal): 404 | 409 {
  return refusal === "not_found" ? 404 : 409;
}

/** What a follow-up is created with: the consultation it continues, and its doctor alone until the promised time. */
export function followUpColumns(followUpOfId: string, doctorId: string, now: Date) {
  return { followUpOfId, reservedForDoctorId: doctorId, reservedUntil: new Date(now.getTime() + FOLLOW_UP_RESERVATION_MS) };
}

/** When the patient is reminded to send new photos: `days` after `from` (the end of the consultation). */
export function newPhotosDueAt(days: number, from: Date): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/** The "in N days" a saved due date stands for, counted from when it was saved (for the form to show it again). */
export function newPhotosDaysOf(dueAt: Date | null, savedAt: Date): number | null {
  return dueAt ? Math.max(NEW_PHOTOS_DAYS.min, Math.round((dueAt.getTime() - savedAt.getTime()) / DAY_MS)) : null;
}
