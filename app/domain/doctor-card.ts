// What a doctor sets of the card patients read before paying (issue 17, item 3): their picture, judged
// by its bytes (type, size, declared pixels; Workers cannot resize, so browsers do it first), and the
// languages they consult in.
import { sniffPhotoType } from "./consultation-request";
import { declaredPixelSize } from "./image-dimensions";
import { type Language, LANGUAGES } from "./languages";

/** A picture sent without JavaScript is not made smaller first: a phone's photo fits, a poster does not. */
export const MAX_DOCTOR_PICTURE_BYTES = 2 * 1024 * 1024;
/** Width × height a picture may declare: a 12-megapixel phone photo passes, a decompression bomb does not. */
export const MAX_DOCTOR_PICTURE_PIXELS = 16_000_000;

export type DoctorPictureRefusal = "missing" | "tooLarge" | "wrongType" | "tooManyPixels";

/** Why a file cannot be a doctor's picture, or null. `head` is its first bytes (enough for the type and pixel size). */
export function doctorPictureRefusal(sizeBytes: number, head: Uint8Array): DoctorPictureRefusal | null {
  if (sizeBytes === 0) return "missing";
  if (sizeBytes > MAX_DOCTOR_PICTURE_BYTES) return "tooLarge";
  const type = sniffPhotoType(head);
  const size = type ? declaredPixelSize(head, type) : null;
  if (!type || !size) return "wrongType";
  return size.width * size.height > MAX_DOCTOR_PICTURE_PIXELS ? "tooManyPixels" : null;
}

/** The order languages are offered and listed in: Amharic first, as most patients read it. */
export const CONSULTATION_LANGUAGE_ORDER: readonly Language[] = ["am", ...LANGUAGES.filter((language) => language !== "am")];

/** The languages among `values` (checkbox values, or the stored list split), once each, in offering order. */
export function consultationLanguagesOf(values: readonly unknown[]): Language[] {
  return CONSULTATION_LANGUAGE_ORDER.filter((language) => values.includes(language));
}

/** A doctor's stored `consultationLanguages` ("am,en") as languages; unknown codes are left out. */
export const storedConsultationLanguages = (stored: string) => consultationLanguagesOf(stored.split(","));

/** The card as a patient reads it, already worded in their language (doctor-card.server words it). */
export interface DoctorCard {
  name: string;
  lines: string[];
  verified: string | null;
  pictureUrl: string | null;
  pictureAlt: string;
}
