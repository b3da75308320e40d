// A doctor's medical licence file: PDF, JPG or PNG, judged by its first bytes, never by its name.
import { type LICENCE_CONTENT_TYPES, MAX_LICENCE_BYTES } from "./constants";

export type LicenceType = (typeof LICENCE_CONTENT_TYPES)[number];
export type LicenceRefusal = "licenceRequired" | "licenceTooLarge" | "licenceWrongType";

/** How many leading bytes `sniffLicenceType` needs. */
export const LICENCE_HEADER_BYTES = 8;

export function sniffLicenceType(head: Uint8Array): LicenceType | null {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return "application/pdf"; // %PDF-
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  return null;
}

/** Why a file cannot be a licence (a key under `admin.doctors.errors`), or null. */
export function licenceRefusal(sizeBytes: number, head: Uint8Array): LicenceRefusal | null {
  if (sizeBytes === 0) return "licenceRequired";
  if (sizeBytes > MAX_LICENCE_BYTES) return "licenceTooLarge";
  return sniffLicenceType(head) ? null : "licenceWrongType";
}
