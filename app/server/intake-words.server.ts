// The structured intake in words: the form's labels (step 2 is worded on the server, so its texts are not
// shipped as script), the triage line in each language, and the intake as a doctor reads it.
import type { TFunction } from "i18next";

import {
  BODY_AREAS,
  DURATION_UNITS,
  type Intake,
  type IntakeFormWords,
  PREGNANCY_STATES,
  SEXES,
  SYMPTOMS,
  triageLine,
  type TriageWords,
} from "~/domain/intake";
import { labelled } from "~/domain/label-colon";
import { type Language, LANGUAGES } from "~/domain/languages";
import type { IntakeView } from "~/domain/views/intake-view";
import { getTranslatorFor } from "~/i18n.server";

type Translate = TFunction<"common">;

const named = <Value extends string>(values: readonly Value[], word: (value: Value) => string) =>
  Object.fromEntries(values.map((value) => [value, word(value)])) as Record<Value, string>;

/** Every word of the intake form, in the reader's language. */
export function intakeFormWords(t: Translate): IntakeFormWords {
  return {
    title: t("intake.title"),
    ageYears: t("intake.ageYears"),
    sex: t("intake.sex"),
    sexes: named(SEXES, (sex) => t(`intake.sexes.${sex}`)),
    bodyMap: t("intake.bodyMap"),
    bodyMapHint: t("intake.bodyMapHint"),
    front: t("intake.front"),
    back: t("intake.back"),
    areas: named(BODY_AREAS, (area) => t(`intake.areas.${area}`)),
    duration: t("intake.duration"),
    durationAmount: t("intake.durationAmount"),
    durationUnit: t("intake.durationUnit"),
    units: named(DURATION_UNITS, (unit) => t(`intake.units.${unit}`)),
    symptoms: t("intake.symptoms"),
    symptomNames: named(SYMPTOMS, (symptom) => t(`intake.symptomNames.${symptom}`)),
    treatmentsTried: t("intake.treatmentsTried"),
    allergies: t("intake.allergies"),
    pregnancy: t("intake.pregnancy"),
    pregnancyStates: named(PREGNANCY_STATES, (state) => t(`intake.pregnancyStates.${state}`)),
  };
}

// Worded once per translator (one per language for the Worker's life, i18n.server): every submit and
// every intake shown needs them, and wording each area and symptom again made garbage each time.
const triageWordsOf = new WeakMap<Translate, TriageWords>();

function triageWords(t: Translate): TriageWords {
  let words = triageWordsOf.get(t);
  if (!words) {
    words = wordTriage(t);
    triageWordsOf.set(t, words);
  }
  return words;
}

function wordTriage(t: Translate): TriageWords {
  return {
    separator: t("intake.triage.separator"),
    sexInitial: named(SEXES, (sex) => t(`intake.triage.sexInitial.${sex}`)),
    bodyArea: named(BODY_AREAS, (area) => t(`intake.areas.${area}`).toLowerCase()),
    duration: (count, unit) => t(`intake.lasted.${unit}`, { count }),
    symptom: named(SYMPTOMS, (symptom) => t(`intake.symptomNames.${symptom}`).toLowerCase()),
    pregnancy: { pregnant: t("intake.triage.pregnancy.pregnant"), breastfeeding: t("intake.triage.pregnancy.breastfeeding") },
  };
}

/** The triage line in the reader's language ("" for a consultation from before the intake). */
function triageLineIn(t: Translate, intake: Intake): string {
  return triageLine(intake, triageWords(t));
}

/** The triage line in every language: the doctors' live queue carries both, each page shows its own. */
export async function triageLines(intake: Intake): Promise<Record<Language, string>> {
  const translators = await Promise.all(LANGUAGES.map(getTranslatorFor));
  return named(LANGUAGES, (language) => triageLineIn(translators[LANGUAGES.indexOf(language)]!, intake));
}

/** The intake as a doctor's or an admin's page shows it; null for a consultation from before the intake. */
export function intakeView(t: Translate, intake: Intake): IntakeView | null {
  const rows = intakeShown(t, intake);
  return rows.length === 0 ? null : { heading: t("intake.shown.title"), triage: triageLineIn(t, intake), rows };
}

/** The intake as a label and its words, for what was given. */
function intakeShown(t: Translate, intake: Intake): { label: string; text: string }[] {
  const words = triageWords(t);
  const who = [
    intake.sex ? t(`intake.sexes.${intake.sex}`) : "",
    intake.ageYears === null ? "" : labelled(t("intake.ageYears"), intake.ageYears),
    intake.pregnancy && intake.pregnancy !== "no" ? words.pregnancy[intake.pregnancy] : "",
  ].filter(Boolean);
  const rows = [
    { label: t("intake.shown.who"), text: who.join(" · ") },
    { label: t("intake.shown.areas"), text: intake.bodyAreas.map((area) => t(`intake.areas.${area}`)).join(words.separator) },
    {
      label: t("intake.shown.lasted"),
      text: intake.durationAmount !== null && intake.durationUnit ? words.duration(intake.durationAmount, intake.durationUnit) : "",
    },
    {
      label: t("intake.shown.symptoms"),
      text: intake.symptoms.map((symptom) => t(`intake.symptomNames.${symptom}`)).join(words.separator),
    },
    { label: t("intake.treatmentsTried"), text: intake.treatmentsTried },
    { label: t("intake.allergies"), text: intake.allergies },
  ];
  return rows.filter((row) => row.text !== "");
}
