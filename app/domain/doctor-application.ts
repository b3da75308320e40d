// A dermatologist's application to join (/register/doctor) and an admin's answer to it: one schema
// each, read by `parseForm` on the server. Messages are translation keys.
import { z } from "zod/mini";

import { type LICENCE_CONTENT_TYPES, MAX_LICENCE_BYTES, MIN_EXPERIENCE_YEARS } from "./constants";
import { sniffPhotoType } from "./consultation-request";
import { normalizeEthiopianPhone } from "./phone";
import { cleanLine, cleanText } from "./text-hygiene";

const REQUIRED = "forms.errors.required";
const TOO_LONG = "forms.errors.tooLong";

/** Name of the hidden field people never see and never fill; a form that fills it is a bot's. */
export const HONEYPOT_FIELD = "website";

export const MAX_APPLICANT_NAME_CHARS = 120;
const MAX_CITY_COUNTRY_CHARS = 120;
/** Years of experience above this are a typing mistake, not a career. */
export const MAX_EXPERIENCE_YEARS = 70;
export const MAX_REJECTION_REASON_CHARS = 500;

/** A required one-line text: cleaned (see text-hygiene), trimmed, present and capped. */
export const requiredLine = (maxChars: number) =>
  z
    .string({ error: REQUIRED })
    .check(z.overwrite(cleanLine), z.trim(), z.minLength(1, { error: REQUIRED }), z.maxLength(maxChars, { error: TOO_LONG }));

/** An email address, lower-cased like account addresses. */
export const emailAddress = z.pipe(
  requiredLine(254),
  z.pipe(
    z.email({ error: "forms.errors.invalidEmail" }),
    z.transform((value) => value.toLowerCase()),
  ),
);

const isFile = (value: unknown): value is File => typeof File !== "undefined" && value instanceof File;

export const DoctorApplicationSchema = z.object({
  fullName: requiredLine(MAX_APPLICANT_NAME_CHARS),
  phone: z.pipe(
    requiredLine(40),
    z.transform((value, context) => {
      const normalized = normalizeEthiopianPhone(value);
      if (!normalized) context.issues.push({ code: "custom", message: "forms.errors.invalidPhone", input: value });
      return normalized ?? "";
    }),
  ),
  email: emailAddress,
  cityCountry: requiredLine(MAX_CITY_COUNTRY_CHARS),
  experienceYears: z.pipe(
    z
      .string({ error: REQUIRED })
      .check(z.trim(), z.minLength(1, { error: REQUIRED }), z.regex(/^\d{1,3}$/, { error: "doctorApplication.errors.experience" })),
    z.pipe(
      z.transform(Number),
      z
        .number()
        .check(
          z.gte(MIN_EXPERIENCE_YEARS, { error: "doctorApplication.errors.experience" }),
          z.lte(MAX_EXPERIENCE_YEARS, { error: "doctorApplication.errors.experience" }),
        ),
    ),
  ),
  licence: z.custom<File>(isFile, { error: "doctorApplication.errors.licenceRequired" }),
});
export type DoctorApplication = z.output<typeof DoctorApplicationSchema>;

/** The optional reason an admin gives for rejecting an application: one clean text, capped. */
export const RejectionSchema = z.object({
  reason: z.pipe(
    z.optional(z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_REJECTION_REASON_CHARS, { error: TOO_LONG }))),
    z.transform((reason) => reason || null),
  ),
});

export type LicenceType = (typeof LICENCE_CONTENT_TYPES)[number];
export type LicenceRefusal = "licenceEmpty" | "licenceTooLarge" | "licenceWrongType";

/** A licence file's type read from its first bytes (PDF, JPEG or PNG), whatever its name says; else null. */
export function sniffLicenceType(head: Uint8Array): LicenceType | null {
  if (String.fromCharCode(...head.slice(0, 5)) === "%PDF-") return "application/pdf";
  const image = sniffPhotoType(head);
  return image === "image/jpeg" || image === "image/png" ? image : null;
}

/** Why a licence file of `sizeBytes` starting with `head` cannot be accepted (a key under `doctorApplication.errors`), or null. */
export function licenceRefusal(sizeBytes: number, head: Uint8Array): LicenceRefusal | null {
  if (sizeBytes === 0) return "licenceEmpty";
  if (sizeBytes > MAX_LICENCE_BYTES) return "licenceTooLarge";
  return sniffLicenceType(head) ? null : "licenceWrongType";
}

/** A full name as first and last: the first word, then the rest ("Abebe Kebede Tesfaye" → Abebe / Kebede Tesfaye). */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const [first = "", ...rest] = words;
  return { firstName: first.slice(0, 60), lastName: rest.join(" ").slice(0, 60) };
}

/** A file name safe to put in a Content-Disposition header: ASCII letters, digits, dots, dashes; the type's extension. */
export function safeDownloadName(original: string, contentType: LicenceType): string {
  const extension = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png" }[contentType];
  const stem = original
    .replace(/\.[^.]*$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(0, 80);
  return `${stem || "licence"}.${extension}`;
}
