// The new-consultation wizard's server half (patient.new-consultation.tsx, and its photos route
// patient.new-consultation.photos.ts): photos into a draft, and the final submit.
import type { SubmissionResult } from "@conform-to/react";
import type { AppLoadContext } from "@remix-run/cloudflare";

import { MAX_PHOTO_PIXELS, MAX_UPLOAD_REQUEST_BYTES } from "~/domain/constants";
import { DraftDetailsSchema, draftWordsOf, type PhotoRefusal, RequestDetailsSchema } from "~/domain/consultation-request";
import { followUpColumns, type FollowUpRefusal } from "~/domain/follow-ups";
import { isUuid } from "~/domain/ids";
import { type PhotoDescriptionRefusal, readPhotoDescription } from "~/domain/photo-description";
import { cleanLine } from "~/domain/text-hygiene";
import { parseForm } from "~/forms";
import type { TextKey } from "~/i18n";
import type { Translate } from "~/i18n.server";
import type { SessionUser } from "~/server/auth/session.server";
import { clientAddress } from "~/server/client-address.server";
import { createDraft, saveDraftWords } from "~/server/consultations/drafts.server";
import { submitRequest } from "~/server/consultations/submit.server";
import { findOwnDraft, isActiveDoctorCode } from "~/server/db/requests.server";
import { describeDraftPhoto, photoRefusalOf, removeDraftPhoto, storePhoto } from "~/server/files.server";
import { checkFollowUp, followUpIdOf } from "~/server/follow-ups.server";
import { announceRequest } from "~/server/rooms.server";
import { deliverTelegramAfterResponse } from "~/server/telegram/outbox.server";
import { queueNewRequestForDoctors } from "~/server/telegram/queue.server";

export type PhotoUploadResult =
  | {
      ok: true;
      draftId: string | null;
      storedIds: string[];
      refused: Array<{ fileName: string; refusal: PhotoRefusal | "alreadySubmitted" }>;
    }
  | { ok: false; status: 400 | 404 | 413; error: TextKey };

const DESCRIPTION_REFUSAL_MESSAGES = {
  unknownPhotoKind: "guidedPhotos.errors.unknownPhotoKind",
  unknownBodyArea: "guidedPhotos.errors.unknownBodyArea",
} as const satisfies Record<PhotoDescriptionRefusal, TextKey>;

/** True when the request says it is bigger than a full set of photos could be; refuse it unread. */
export function uploadTooLarge(request: Request) {
  return Number(request.headers.get("Content-Length") ?? 0) > MAX_UPLOAD_REQUEST_BYTES;
}

/** Stores the photos of a multipart request into the patient's draft, creating the draft if needed. */
export async function receivePhotos(
  context: AppLoadContext,
  request: Request,
  patient: SessionUser,
  formData?: FormData,
): Promise<PhotoUploadResult> {
  if (!formData && uploadTooLarge(request)) return { ok: false, status: 413, error: "request.errors.uploadTooLarge" };
  let form: FormData;
  try {
    form = formData ?? (await request.formData());
  } catch {
    return { ok: false, status: 400, error: "request.errors.uploadUnreadable" };
  }
  const files = form.getAll("photo").filter((value): value is File => typeof value !== "string" && (value.size > 0 || value.name !== ""));
  // A post with no photo in it (no file chosen, or a forged form) is no upload: said so.
  if (files.length === 0) return { ok: false, status: 400, error: "badInput.noPhoto" };
  // What these photos show (the form without JavaScript says it once for all of them).
  const described = readPhotoDescription(form.get("photoKind"), form.get("bodyArea"));
  if (!described.ok) return { ok: false, status: 400, error: DESCRIPTION_REFUSAL_MESSAGES[described.refusal] };
  const givenDraft = form.get("draftId") ?? undefined;
  if (givenDraft !== undefined && (!isUuid(givenDraft) || !(await findOwnDraft(context.db, givenDraft, patient.userId)))) {
    return { ok: false, status: 404, error: "request.errors.draftNotFound" };
  }
  const storedIds: string[] = [];
  const refused: Array<{ fileName: string; refusal: PhotoRefusal | "alreadySubmitted" }> = [];
  // A new draft only for photos that can be kept: refused uploads leave nothing behind.
  let draftId = givenDraft;
  if (!draftId) {
    // One file at a time: a full set of photos is already a lot of memory for a Worker.
    const refusals: Array<PhotoRefusal | null> = [];
    for (const file of files) refusals.push(await photoRefusalOf(file, 0));
    if (!refusals.includes(null)) {
      for (const [index, file] of files.entries()) refused.push({ fileName: file.name, refusal: refusals[index]! });
      return { ok: true, draftId: null, storedIds, refused };
    }
    draftId = await createDraft(context.db, patient.userId, new Date());
  }
  for (const file of files) {
    const stored = await storePhoto(
      context.db,
      context.cloudflare.env.FILES,
      { consultationId: draftId, uploaderId: patient.userId, description: described.description },
      file,
    );
    if (stored.ok) storedIds.push(stored.id);
    else refused.push({ fileName: stored.fileName, refusal: stored.refusal });
  }
  return { ok: true, draftId, storedIds, refused };
}

/** Each refused photo's reason, in the reader's language, naming the file. */
export function refusalMessages(t: Translate, refused: Array<{ fileName: string; refusal: PhotoRefusal | "alreadySubmitted" }>) {
  return refused.map(({ fileName, refusal }) =>
    t(`request.errors.${refusal}`, { name: fileName, megapixels: MAX_PHOTO_PIXELS / 1_000_000 }),
  );
}

/** Removes a photo of the patient's own draft; "no_draft" when the draft is not theirs (or none). */
export async function removePhoto(context: AppLoadContext, patient: SessionUser, draftId: string, photoId: string) {
  if (!(await findOwnDraft(context.db, draftId, patient.userId))) return "no_draft";
  if (!isUuid(photoId)) return false;
  return removeDraftPhoto(context.db, context.cloudflare.env.FILES, draftId, photoId);
}

/** Sets what one photo of the patient's draft shows (its kind and body area), from its form. */
export async function describePhoto(
  context: AppLoadContext,
  patient: SessionUser,
  formData: FormData,
): Promise<{ ok: true; draftId: string } | { ok: false; status: 400 | 404; error: TextKey }> {
  const described = readPhotoDescription(formData.get("photoKind"), formData.get("bodyArea"));
  if (!described.ok) return { ok: false, status: 400, error: DESCRIPTION_REFUSAL_MESSAGES[described.refusal] };
  const photoId = formData.get("photoId");
  const draftId = isUuid(photoId) ? await describeDraftPhoto(context.db, patient.userId, photoId, described.description) : null;
  if (!draftId) return { ok: false, status: 404, error: "guidedPhotos.errors.photoNotFound" };
  return { ok: true, draftId };
}

/**
 * "Previous" on the details step: what was typed is kept in the draft (a new one if there is none yet),
 * so coming back shows it again. Returns the draft, or the form's errors (a section too long).
 */
export async function keepDetails(
  context: AppLoadContext,
  patient: SessionUser,
  formData: FormData,
): Promise<{ ok: true; draftId: string } | { ok: false; result: SubmissionResult<string[]> }> {
  const submission = parseForm(formData, DraftDetailsSchema);
  if (submission.status !== "success") return { ok: false, result: submission.reply() };
  const words = draftWordsOf(submission.value);
  const now = new Date();
  const draftId = submission.value.draftId;
  if (draftId && (await saveDraftWords(context.db, draftId, patient.userId, words, now))) return { ok: true, draftId };
  return { ok: true, draftId: await createDraft(context.db, patient.userId, now, words) };
}

const SUBMIT_REFUSAL_MESSAGES = {
  draft_not_found: "request.errors.draftNotFound",
  photos_missing: "request.errors.photosMissing",
  too_many_waiting: "request.errors.tooManyWaiting",
} as const satisfies Record<string, TextKey>;

export type SubmitResult =
  | { ok: true; consultationId: string }
  | { ok: false; result: SubmissionResult<string[]>; formError?: TextKey }
  /** The follow-up its address names may not be sent (someone else's, not completed, too late, its doctor gone). */
  | { ok: false; followUpRefusal: FollowUpRefusal };

export async function submitNewConsultation(
  context: AppLoadContext,
  request: Request,
  patient: SessionUser,
  formData: FormData,
): Promise<SubmitResult> {
  const now = new Date();
  // A follow-up (its address names the consultation it continues) is checked again as it is sent.
  const followUpOf = followUpIdOf(new URL(request.url));
  const followUp = followUpOf === null ? null : await checkFollowUp(context.db, patient.userId, followUpOf, now);
  if (followUp && !followUp.ok) return { ok: false, followUpRefusal: followUp.refusal };
  const submission = parseForm(formData, RequestDetailsSchema);
  if (submission.status !== "success") return { ok: false, result: submission.reply() };
  const details = submission.value;
  if (details.doctorCode && !(await isActiveDoctorCode(context.db, details.doctorCode))) {
    return { ok: false, result: submission.reply({ fieldErrors: { doctorCode: ["request.errors.unknownDoctorCode"] } }) };
  }
  const outcome = await submitRequest(context.db, context.cloudflare.env.FILES, patient.userId, details, {
    now,
    ipAddress: clientAddress(request),
    followUp: followUp ? followUpColumns(followUp.source.id, followUp.doctorId, now) : null,
  });
  if (!outcome.ok) {
    const formError = SUBMIT_REFUSAL_MESSAGES[outcome.reason];
    return { ok: false, result: submission.reply(), formError };
  }
  if ("repeated" in outcome) return { ok: true, consultationId: outcome.consultationId };
  const { submitted } = outcome;
  await announceRequest(context.cloudflare.env, {
    ...submitted,
    summary: { ...submitted.summary, patientFirstName: cleanLine(patient.firstName ?? "") },
  });
  const told = await queueNewRequestForDoctors(context.db, outcome.consultationId, followUp?.doctorId ?? null, now);
  if (told.length > 0) deliverTelegramAfterResponse(context, told);
  return { ok: true, consultationId: outcome.consultationId };
}
