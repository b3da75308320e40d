// The picture a doctor puts on the card patients read before paying, in R2: judged by its bytes, stored
// under a new key each time, the row pointed at it, and only then the object it replaced deleted (so no
// picture is ever left behind, even when two uploads race). Served privately and never sniffed.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, isNull } from "drizzle-orm";

import { doctors } from "~/db/schema";
import { sniffPhotoType } from "~/domain/consultation-request";
import { type DoctorPictureRefusal, doctorPictureRefusal, MAX_DOCTOR_PICTURE_BYTES } from "~/domain/doctor-card";
import { recordAudit } from "~/server/audit.server";
import type { Database } from "~/server/db/client.server";

/** Enough of a picture to read its type and the pixel size it declares, however much metadata comes first. */
const PICTURE_HEADER_BYTES = 256 * 1024;

const pictureKeyOf = (doctorId: string) => `doctor-pictures/${doctorId}/${crypto.randomUUID()}`;

/**
 * Points the doctor's row at `key` in place of whatever it holds, and returns the key it replaced. A
 * compare-and-swap: when another change lands in between, it reads again, so each change deletes exactly
 * the object it replaced.
 */
async function swapPictureKey(db: Database, doctorId: string, key: string | null): Promise<string | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.query.doctors.findFirst({ where: eq(doctors.userId, doctorId), columns: { profilePictureKey: true } });
    if (!row) throw new Error(`No doctor ${doctorId}`);
    const current = row.profilePictureKey;
    const result = await db
      .update(doctors)
      .set({ profilePictureKey: key, updatedAt: new Date() })
      .where(
        and(eq(doctors.userId, doctorId), current === null ? isNull(doctors.profilePictureKey) : eq(doctors.profilePictureKey, current)),
      );
    if (result.meta.changes === 1) return current;
  }
  throw new Error(`The picture of doctor ${doctorId} kept changing`);
}

/** Deletes a replaced picture; a failure leaves an unreferenced object behind, logged, never an error for the doctor. */
export async function deleteReplacedPicture(bucket: R2Bucket, key: string | null) {
  if (!key) return;
  try {
    await bucket.delete(key);
  } catch (error) {
    console.error(JSON.stringify({ event: "doctor_picture_delete_failed", key, error: String(error) }));
  }
}

/** Whether a request declares a body too large to hold an acceptable picture (refused before it is read). */
export function declaresOversizePicture(request: Request) {
  // Room for the multipart framing and the form's other fields.
  return Number(request.headers.get("Content-Length") ?? 0) > MAX_DOCTOR_PICTURE_BYTES + 64 * 1024;
}

/** Checks and stores the doctor's new picture, replacing their old one; audited. A refusal stores nothing. */
export async function replaceOwnPicture(
  context: AppLoadContext,
  request: Request,
  doctorId: string,
  file: File | null,
): Promise<{ ok: true } | { ok: false; refusal: DoctorPictureRefusal }> {
  if (!file) return { ok: false, refusal: "missing" };
  const head =
    file.size > MAX_DOCTOR_PICTURE_BYTES ? new Uint8Array() : new Uint8Array(await file.slice(0, PICTURE_HEADER_BYTES).arrayBuffer());
  const refusal = doctorPictureRefusal(file.size, head);
  if (refusal) return { ok: false, refusal };
  const bucket = context.cloudflare.env.FILES;
  const key = pictureKeyOf(doctorId);
  await bucket.put(key, file.stream(), { httpMetadata: { contentType: sniffPhotoType(head)! } });
  let replaced: string | null;
  try {
    replaced = await swapPictureKey(context.db, doctorId, key);
  } catch (error) {
    await deleteReplacedPicture(bucket, key);
    throw error;
  }
  await recordAudit(context.db, request, {
    action: "doctor.picture_changed",
    actorId: doctorId,
    targetType: "user",
    targetId: doctorId,
    details: { sizeBytes: file.size },
  });
  await deleteReplacedPicture(bucket, replaced);
  return { ok: true };
}

/** Takes the doctor's picture off their card and out of R2; audited. False when there was none. */
export async function removeOwnPicture(context: AppLoadContext, request: Request, doctorId: string) {
  const removed = await swapPictureKey(context.db, doctorId, null);
  if (!removed) return false;
  await recordAudit(context.db, request, { action: "doctor.picture_removed", actorId: doctorId, targetType: "user", targetId: doctorId });
  await deleteReplacedPicture(context.cloudflare.env.FILES, removed);
  return true;
}

/** A doctor's picture as a private image: cached by the browser alone (its address changes with it), never sniffed. */
export function pictureResponse(object: R2ObjectBody) {
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
      "Cache-Control": "private, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
