// The structured intake of a request (step 2): who the skin belongs to, where the problem is, how long it
// has lasted and what it does. The doctor reads it first as one triage line.

/** The body map's areas, each a checkbox on the front or the back view, named in both languages. */
export const BODY_AREAS_FRONT = [
  "face",
  "neck",
  "chest",
  "abdomen",
  "groin",
  "right_upper_arm",
  "left_upper_arm",
  "right_forearm",
  "left_forearm",
  "right_hand",
  "left_hand",
  "right_thigh",
  "left_thigh",
  "right_lower_leg",
  "left_lower_leg",
  "right_foot",
  "left_foot",
] as const;
export const BODY_AREAS_BACK = ["scalp", "upper_back", "lower_back", "buttocks"] as const;
export const BODY_AREAS = [...BODY_AREAS_FRONT, ...BODY_AREAS_BACK] as const;
export type BodyArea = (typeof BODY_AREAS)[number];

/** What a request photo shows (guided photos). */
export const PHOTO_KINDS = ["close_up", "distance", "other"] as const;
export type PhotoKind = (typeof PHOTO_KINDS)[number];

export const SEXES = ["female", "male"] as const;
export type Sex = (typeof SEXES)[number];

export const DURATION_UNITS = ["days", "weeks", "months", "years"] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
export const MAX_DURATION_AMOUNT = 99;

export const SYMPTOMS = ["itch", "pain", "bleeding", "spreading", "fever"] as const;
export type Symptom = (typeof SYMPTOMS)[number];

/** Asked when it applies (a woman of 12 to 55); "no" is the default answer. */
export const PREGNANCY_STATES = ["no", "pregnant", "breastfeeding"] as const;
export type PregnancyState = (typeof PREGNANCY_STATES)[number];
const PREGNANCY_AGE_YEARS = { min: 12, max: 55 } as const;

export const MAX_AGE_YEARS = 120;
export const MAX_INTAKE_NOTE_CHARS = 1000;

export function isBodyArea(value: unknown): value is BodyArea {
  return typeof value === "string" && (BODY_AREAS as readonly string[]).includes(value);
}

/** A comma-separated list as stored, read back as the known values only, in their canonical order. */
export function listOf<Value extends string>(known: readonly Value[], stored: string | null | undefined): Value[] {
  const given = new Set((stored ?? "").split(",").map((item) => item.trim()));
  return known.filter((value) => given.has(value));
}

/** What the intake holds, as stored on the consultation; older consultations have none of it (nulls). */
export interface Intake {
  ageYears: number | null;
  sex: Sex | null;
  bodyAreas: BodyArea[];
  durationAmount: number | null;
  durationUnit: DurationUnit | null;
  symptoms: Symptom[];
  treatmentsTried: string;
  allergies: string;
  pregnancy: PregnancyState | null;
}

export function pregnancyApplies(sex: Sex | null, ageYears: number | null): boolean {
  return sex === "female" && (ageYears === null || (ageYears >= PREGNANCY_AGE_YEARS.min && ageYears <= PREGNANCY_AGE_YEARS.max));
}

/** Every word of the intake form, in the reader's language (intake-words.server words it). */
export interface IntakeFormWords {
  title: string;
  ageYears: string;
  sex: string;
  sexes: Record<Sex, string>;
  bodyMap: string;
  bodyMapHint: string;
  front: string;
  back: string;
  areas: Record<BodyArea, string>;
  duration: string;
  durationAmount: string;
  durationUnit: string;
  units: Record<DurationUnit, string>;
  symptoms: string;
  symptomNames: Record<Symptom, string>;
  treatmentsTried: string;
  allergies: string;
  pregnancy: string;
  pregnancyStates: Record<PregnancyState, string>;
}

/** The words a triage line is made of, in the reader's language. */
export interface TriageWords {
  /** Between the items of a list: ", " in English, "፣ " in Amharic. */
  separator: string;
  sexInitial: Record<Sex, string>;
  bodyArea: Record<BodyArea, string>;
  /** "{{count}} weeks", chosen by count. */
  duration: (amount: number, unit: DurationUnit) => string;
  symptom: Record<Symptom, string>;
  pregnancy: Record<Exclude<PregnancyState, "no">, string>;
}

/**
 * The one-line triage summary doctors read first, e.g. "F, 34 · left forearm · 3 weeks · itch, spreading".
 * Empty for a consultation from before the intake.
 */
export function triageLine(intake: Intake, words: TriageWords): string {
  const who = [intake.sex ? words.sexInitial[intake.sex] : null, intake.ageYears === null ? null : String(intake.ageYears)]
    .filter(Boolean)
    .join(words.separator);
  const parts = [
    who,
    intake.bodyAreas.map((area) => words.bodyArea[area]).join(words.separator),
    intake.durationAmount !== null && intake.durationUnit ? words.duration(intake.durationAmount, intake.durationUnit) : "",
    intake.symptoms.map((symptom) => words.symptom[symptom]).join(words.separator),
    intake.pregnancy && intake.pregnancy !== "no" ? words.pregnancy[intake.pregnancy] : "",
  ];
  return parts.filter((part) => part !== "").join(" · ");
}
