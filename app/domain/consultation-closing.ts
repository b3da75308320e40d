// Closing a consultation: the doctor's summary (observations, diagnosis, treatment plan), editable by the
// assigned doctor until the consultation is completed, and ending it, which needs a diagnosis and a
// treatment plan. The summary form's schema is read by the server only (the form needs no script).
import { z } from "zod/mini";

import { MAX_SUMMARY_FIELD_CHARS } from "./constants";
import { cleanText } from "./text-hygiene";

export const CLOSING_INTENTS = { saveSummary: "save-summary", end: "end-consultation" } as const;

/** Every error the summary form can come back with (its page shows them in words the server gives it). */
export const SUMMARY_ERRORS = [
  "forms.errors.tooLong",
  "forms.errors.invalid",
  "doctor.closing.diagnosisRequired",
  "doctor.closing.planRequired",
] as const;

const summaryField = z.pipe(
  z.optional(z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_SUMMARY_FIELD_CHARS, { error: SUMMARY_ERRORS[0] }))),
  z.transform((text) => text ?? ""),
);

/** The summary as the doctor sends it, to save or to end with. Ending needs a diagnosis and a plan. */
export const SummarySchema = z
  .object({
    intent: z.enum([CLOSING_INTENTS.saveSummary, CLOSING_INTENTS.end]),
    observations: summaryField,
    diagnosis: summaryField,
    treatmentPlan: summaryField,
  })
  .check(
    z.refine((form) => form.intent !== CLOSING_INTENTS.end || form.diagnosis.length > 0, {
      error: SUMMARY_ERRORS[2],
      path: ["diagnosis"],
    }),
    z.refine((form) => form.intent !== CLOSING_INTENTS.end || form.treatmentPlan.length > 0, {
      error: SUMMARY_ERRORS[3],
      path: ["treatmentPlan"],
    }),
  );
export type Summary = z.output<typeof SummarySchema>;

export type ClosingRefusal = "not_found" | "not_permitted" | "already_completed" | "not_in_progress";
