// The files an admin attaches to a doctor's account, in R2 under generated keys: the medical licence
// (PDF, JPG or PNG, 10 MB) and the profile picture (JPG, PNG or WebP, 5 MB, pixels capped). Both are
// judged by their bytes, never by their names, and served only to admins.
import { MAX_PHOTO_BYTES } from "~/domain/constants";
import { type PhotoRefusal, photoRefusal, sniffPhotoType } from "~/domain/consultation-request";
import { LICENCE_HEADER_BYTES, type LicenceRefusal, licenceRefusal, sniffLicenceType } from "~/domain/licence-file";

/** Enough of a picture to read its type and the pixel size it declares. */
const PICTURE_HEADER_BYTES = 1024 * 1024;

const headOf = async (file: File, bytes: number) => new Uint8Array(await file.slice(0, bytes).arrayBuffer());

export type StoredLicence = { ok: true; key: string } | { ok: false; refusal: LicenceRefusal };

/** Checks and stores a licence file under a new key; nothing is stored when it is refused. */
export async function storeLicenceFile(bucket: R2Bucket, file: File): Promise<StoredLicence> {
  const head = await headOf(file, LICENCE_HEADER_BYTES);
  const refusal = licenceRefusal(file.size, head);
  if (refusal) return { ok: false, refusal };
  const key = `licences/doctor-${crypto.randomUUID()}`;
  await bucket.put(key, file.stream(), { httpMetadata: { contentType: sniffLicenceType(head)! } });
  return { ok: true, key };
}

const doctorPictureKey = (doctorId: string) => `doctor-pictures/${doctorId}`;

export type StoredPicture = { ok: true; key: string } | { ok: false; refusal: PhotoRefusal };

/** Checks and stores a doctor's profile picture, replacing the one they had. */
export async function storeDoctorPicture(bucket: R2Bucket, doctorId: string, file: File): Promise<StoredPicture> {
  const head = file.size > MAX_PHOTO_BYTES ? new Uint8Array() : await headOf(file, PICTURE_HEADER_BYTES);
  const refusal = photoRefusal(file.size, head, 0);
  if (refusal) return { ok: false, refusal };
  const key = doctorPictureKey(doctorId);
  await bucket.put(key, file.stream(), { httpMetadata: { contentType: sniffPhotoType(head)! } });
  return { ok: true, key };
}

/** A stored file as an admin-only download: never cached, never sniffed by the browser. */
export function adminFileResponse(object: R2ObjectBody, fileName: string) {
  const contentType = object.httpMetadata?.contentType ?? "application/octet-stream";
  const extension = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" }[contentType] ?? "bin";
  return new Response(object.body, {
    headers: {
      "Content-Type": contentType,
      "Content-Length": String(object.size),
      "Content-Disposition": `inline; filename="${fileName}.${extension}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
