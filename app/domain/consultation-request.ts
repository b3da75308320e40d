// A patient's request: the words of step 2, the photos of step 1, and how they become a consultation.
import { z } from "zod/mini";

import { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, MAX_PHOTOS_PER_REQUEST, MAX_TITLE_CHARS, type PHOTO_CONTENT_TYPES } from "./constants";
import { DEFAULT_PRIORITY, PRIORITIES, type Priority } from "./consultation-status";
import { declaredPixelSize } from "./image-dimensions";
import { cleanLine, cleanText } from "./text-hygiene";

const MAX_SECTION_CHARS = 4000;
const TOO_LONG = "forms.errors.tooLong";
const optionalText = z._default(
  z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_SECTION_CHARS, { error: TOO_LONG })),
  "",
);

/** The words of step 2 (written with `zod/mini`: this schema ships to the browser). */
export const RequestDetailsSchema = z.object({
  draftId: z.optional(z.uuid({ error: "request.errors.draftNotFound" })),
  /** Fresh on each rendering of the form: the same form sent twice makes one request. */
  submissionKey: z.optional(z.uuid({ error: "request.errors.submitFailed" })),
  chiefComplaint: z
    .string({ error: "request.errors.missingComplaint" })
    .check(
      z.overwrite(cleanText),
      z.trim(),
      z.minLength(1, { error: "request.errors.missingComplaint" }),
      z.maxLength(MAX_SECTION_CHARS, { error: TOO_LONG }),
    ),
  knownIllnesses: optionalText,
  additionalComments: optionalText,
  doctorCode: z.pipe(
    z.optional(z.string().check(z.overwrite(cleanLine), z.trim(), z.maxLength(20, { error: "request.errors.unknownDoctorCode" }))),
    z.transform((code) => (code ? code.toUpperCase() : null)),
  ),
  priority: z._default(z.enum(PRIORITIES, { error: "forms.errors.required" }), DEFAULT_PRIORITY),
});
export type RequestDetails = z.output<typeof RequestDetailsSchema>;

/** What "Previous" keeps of step 2: the same fields, none of them required yet. */
export const DraftDetailsSchema = z.extend(RequestDetailsSchema, { chiefComplaint: optionalText });

/** A draft's words, as the consultation stores them. */
export interface DraftWords {
  mainConcern: string;
  medicalHistory: string;
  additionalComments: string;
  requestedDoctorCode: string | null;
  priority: Priority;
}

export function draftWordsOf(details: z.output<typeof DraftDetailsSchema>): DraftWords {
  return {
    mainConcern: details.chiefComplaint,
    medicalHistory: details.knownIllnesses,
    additionalComments: details.additionalComments,
    requestedDoctorCode: details.doctorCode,
    priority: details.priority,
  };
}

/** Step 2's form, filled with a draft's words (or an earlier request's). */
export function detailsFormOf(words: DraftWords) {
  return {
    chiefComplaint: words.mainConcern,
    knownIllnesses: words.medicalHistory,
    additionalComments: words.additionalComments,
    doctorCode: words.requestedDoctorCode ?? "",
    priority: words.priority,
  };
}

/** The title doctors see first: the chief complaint, cut to its first 100 characters. */
export function titleFromComplaint(complaint: string): string {
  return [...complaint.trim().replace(/\s+/g, " ")].slice(0, MAX_TITLE_CHARS).join("");
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
