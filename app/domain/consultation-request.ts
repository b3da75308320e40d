// A patient's request: the words of step 2, the photos of step 1, and how they become a consultation.
import { z } from "zod/mini";

import { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, MAX_PHOTOS_PER_REQUEST, MAX_TITLE_CHARS, type PHOTO_CONTENT_TYPES } from "./constants";
import { DEFAULT_PRIORITY, PRIORITIES, type Priority } from "./consultation-status";
import { declaredPixelSize } from "./image-dimensions";
import {
  BODY_AREAS,
  type BodyArea,
  DURATION_UNITS,
  type DurationUnit,
  type Intake,
  listOf,
  MAX_AGE_YEARS,
  MAX_DURATION_AMOUNT,
  MAX_INTAKE_NOTE_CHARS,
  PREGNANCY_STATES,
  pregnancyApplies,
  type PregnancyState,
  type Sex,
  SEXES,
  type Symptom,
  SYMPTOMS,
} from "./intake";
import { cleanLine, cleanText } from "./text-hygiene";

const MAX_SECTION_CHARS = 4000;
const TOO_LONG = "forms.errors.tooLong";
const optionalText = z._default(
  z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_SECTION_CHARS, { error: TOO_LONG })),
  "",
);

const REQUIRED = "forms.errors.required";
const INVALID = "forms.errors.invalid";
/** Absent is "required"; present but not one of the choices is "check this field". */
const requiredOrInvalid = { error: (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED : INVALID) };
const intakeNote = z._default(
  z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_INTAKE_NOTE_CHARS, { error: TOO_LONG })),
  "",
);
/** A whole number typed in a field, within a range. */
const wholeNumber = (min: number, max: number) =>
  z.pipe(
    z.string({ error: REQUIRED }).check(z.trim(), z.regex(/^\d{1,3}$/, { error: INVALID })),
    z.pipe(z.transform(Number), z.number().check(z.gte(min, { error: INVALID }), z.lte(max, { error: INVALID }))),
  );
/** Checkboxes of one name: none, one (a string) or many (an array) chosen, each one of `values`. */
const choices = <Value extends string>(values: readonly Value[]) =>
  z.pipe(
    z.optional(z.union([z.string(), z.array(z.string())])),
    z.transform((chosen: string | string[] | undefined, context) => {
      const list = chosen === undefined ? [] : [chosen].flat();
      // Reported on the group, where the page shows it, not on one of its items.
      if (list.some((value) => !(values as readonly string[]).includes(value)))
        context.issues.push({ code: "custom", message: INVALID, input: chosen });
      return list as Value[];
    }),
  );

// The structured intake (app/domain/intake.ts). Age, sex, the body areas and how long are required of a
// new request; "Previous" keeps whatever was filled.
const intakeFields = {
  ageYears: wholeNumber(0, MAX_AGE_YEARS),
  sex: z.enum(SEXES, requiredOrInvalid),
  bodyAreas: z.pipe(choices(BODY_AREAS), z.array(z.enum(BODY_AREAS)).check(z.minLength(1, { error: REQUIRED }))),
  durationAmount: wholeNumber(1, MAX_DURATION_AMOUNT),
  durationUnit: z.enum(DURATION_UNITS, requiredOrInvalid),
  symptoms: choices(SYMPTOMS),
  treatmentsTried: intakeNote,
  allergies: intakeNote,
  pregnancy: z.optional(z.enum(PREGNANCY_STATES, { error: INVALID })),
};

/** The words of step 2 (written with `zod/mini`: this schema ships to the browser). */
export const RequestDetailsSchema = z.object({
  ...intakeFields,
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
export const DraftDetailsSchema = z.extend(RequestDetailsSchema, {
  chiefComplaint: optionalText,
  ageYears: z.optional(intakeFields.ageYears),
  sex: z.optional(intakeFields.sex),
  bodyAreas: choices(BODY_AREAS),
  durationAmount: z.optional(intakeFields.durationAmount),
  durationUnit: z.optional(intakeFields.durationUnit),
});

/** The intake as the consultation stores it (lists comma-separated; pregnancy only where it applies). */
export interface StoredIntake {
  patientAgeYears: number | null;
  patientSex: Sex | null;
  bodyAreas: string;
  durationAmount: number | null;
  durationUnit: DurationUnit | null;
  symptoms: string;
  treatmentsTried: string;
  allergies: string;
  pregnancy: PregnancyState | null;
}

/** A draft's words, as the consultation stores them. */
export interface DraftWords extends StoredIntake {
  mainConcern: string;
  medicalHistory: string;
  additionalComments: string;
  requestedDoctorCode: string | null;
  priority: Priority;
}

type IntakeInput = {
  ageYears?: number;
  sex?: Sex;
  bodyAreas: BodyArea[];
  durationAmount?: number;
  durationUnit?: DurationUnit;
  symptoms: Symptom[];
  treatmentsTried: string;
  allergies: string;
  pregnancy?: PregnancyState;
};

export function storedIntakeOf(details: IntakeInput): StoredIntake {
  const ageYears = details.ageYears ?? null;
  const sex = details.sex ?? null;
  return {
    patientAgeYears: ageYears,
    patientSex: sex,
    bodyAreas: BODY_AREAS.filter((area) => details.bodyAreas.includes(area)).join(","),
    durationAmount: details.durationAmount ?? null,
    durationUnit: details.durationUnit ?? null,
    symptoms: SYMPTOMS.filter((symptom) => details.symptoms.includes(symptom)).join(","),
    treatmentsTried: details.treatmentsTried,
    allergies: details.allergies,
    pregnancy: pregnancyApplies(sex, ageYears) ? (details.pregnancy ?? "no") : null,
  };
}

/** The intake of a stored consultation, read back (older ones have none of it). */
export function intakeOf(stored: StoredIntake): Intake {
  return {
    ageYears: stored.patientAgeYears,
    sex: stored.patientSex,
    bodyAreas: listOf(BODY_AREAS, stored.bodyAreas),
    durationAmount: stored.durationAmount,
    durationUnit: stored.durationUnit,
    symptoms: listOf(SYMPTOMS, stored.symptoms),
    treatmentsTried: stored.treatmentsTried,
    allergies: stored.allergies,
    pregnancy: stored.pregnancy,
  };
}

export function draftWordsOf(details: z.output<typeof DraftDetailsSchema>): DraftWords {
  return {
    mainConcern: details.chiefComplaint,
    medicalHistory: details.knownIllnesses,
    additionalComments: details.additionalComments,
    requestedDoctorCode: details.doctorCode,
    priority: details.priority,
    ...storedIntakeOf(details),
  };
}

/** Step 2's form, filled with a draft's words (or an earlier request's). */
export function detailsFormOf(words: DraftWords) {
  const intake = intakeOf(words);
  return {
    chiefComplaint: words.mainConcern,
    knownIllnesses: words.medicalHistory,
    additionalComments: words.additionalComments,
    doctorCode: words.requestedDoctorCode ?? "",
    priority: words.priority,
    ageYears: intake.ageYears === null ? "" : String(intake.ageYears),
    sex: intake.sex ?? undefined,
    bodyAreas: intake.bodyAreas,
    durationAmount: intake.durationAmount === null ? "" : String(intake.durationAmount),
    durationUnit: intake.durationUnit ?? undefined,
    symptoms: intake.symptoms,
    treatmentsTried: intake.treatmentsTried,
    allergies: intake.allergies,
    pregnancy: intake.pregnancy ?? undefined,
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
