// A patient's request: the words of step 2, the photos of step 1, and how they become a consultation.
import { z } from "zod";
import { PRIORITIES, type ConsultationStatus } from "./consultation-status";
import { cleanLine, cleanText } from "./text-hygiene";
import { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, MAX_PHOTOS_PER_REQUEST, MAX_TITLE_CHARS, PHOTO_CONTENT_TYPES } from "./constants";
import { declaredPixelSize } from "./image-dimensions";

const MAX_SECTION_CHARS = 4000;
const optionalText = z.string().overwrite(cleanText).trim().max(MAX_SECTION_CHARS, { error: "forms.errors.tooLong" }).optional().default("");

export const RequestDetailsSchema = z.object({
  draftId: z.uuid({ error: "request.errors.draftNotFound" }).optional(),
  /** Fresh on each rendering of the form: the same form sent twice makes one request. */
  submissionKey: z.uuid({ error: "request.errors.submitFailed" }).optional(),
  chiefComplaint: z
    .string({ error: "request.errors.missingComplaint" })
    .overwrite(cleanText)
    .trim()
    .min(1, { error: "request.errors.missingComplaint" })
    .max(MAX_SECTION_CHARS, { error: "forms.errors.tooLong" }),
  knownIllnesses: optionalText,
  additionalComments: optionalText,
  doctorCode: z
    .string()
    .overwrite(cleanLine)
    .trim()
    .max(20, { error: "request.errors.unknownDoctorCode" })
    .optional()
    .transform((code) => (code ? code.toUpperCase() : null)),
  priority: z.enum(PRIORITIES, { error: "forms.errors.required" }).default("normal"),
});
export type RequestDetails = z.output<typeof RequestDetailsSchema>;

/** The title doctors see first: the chief complaint, cut to its first 100 characters. */
export function titleFromComplaint(complaint: string): string {
  return [...complaint.trim().replace(/\s+/g, " ")].slice(0, MAX_TITLE_CHARS).join("");
}

/** A request with photos waits for them (`awaiting_assets`); one without goes straight to the doctors. */
export function initialStatus(photoCount: number): ConsultationStatus {
  return photoCount > 0 ? "awaiting_assets" : "pending";
}

export type PhotoType = (typeof PHOTO_CONTENT_TYPES)[number];

/** The photo's type by its first bytes, whatever its name says: JPEG, PNG or WebP, else null. */
export function sniffPhotoType(head: Uint8Array): PhotoType | null {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  const ascii = (from: number, to: number) => String.fromCharCode(...head.slice(from, to));
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

export type PhotoRefusal = "photoEmpty" | "photoTooLarge" | "photoWrongType" | "photoTooManyPixels" | "tooManyPhotos";

/**
 * Why a photo cannot be accepted (a translation key under `request.errors`), or null. `bytes` is the
 * file's content (at least its headers): the type is read from it, then the pixel size it declares.
 */
export function photoRefusal(sizeBytes: number, bytes: Uint8Array, photosAlready: number): PhotoRefusal | null {
  if (photosAlready >= MAX_PHOTOS_PER_REQUEST) return "tooManyPhotos";
  if (sizeBytes === 0) return "photoEmpty";
  if (sizeBytes > MAX_PHOTO_BYTES) return "photoTooLarge";
  const type = sniffPhotoType(bytes);
  if (!type) return "photoWrongType";
  const size = declaredPixelSize(bytes, type);
  if (!size) return "photoWrongType";
  return size.width * size.height > MAX_PHOTO_PIXELS ? "photoTooManyPixels" : null;
}

/** How long a request has waited, in whole minutes, for "waiting 12 min". */
export function minutesWaited(createdAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - createdAt.getTime()) / 60_000));
}
