// The summary form's schema. Only the server reads it (the form needs no script), so it lives apart
// from the intents and messages the doctor's page ships (consultation-closing.ts).
import { z } from "zod/mini";

import { MAX_SUMMARY_FIELD_CHARS } from "./constants";
import { CLOSING_INTENTS, SUMMARY_ERRORS } from "./consultation-closing";
import { NEW_PHOTOS_DAYS } from "./follow-ups";
import { cleanText } from "./text-hygiene";

const summaryField = z.pipe(
  z.optional(z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_SUMMARY_FIELD_CHARS, { error: SUMMARY_ERRORS[0] }))),
  z.transform((text) => text ?? ""),
);

/** "Send me new photos in N days": a whole number of days, or nothing. */
const newPhotosInDays = z.optional(
  z.pipe(
    z.string().check(z.trim(), z.regex(/^\d{1,3}$/, { error: SUMMARY_ERRORS[4] })),
    z.pipe(
      z.transform(Number),
      z.number().check(z.gte(NEW_PHOTOS_DAYS.min, { error: SUMMARY_ERRORS[4] }), z.lte(NEW_PHOTOS_DAYS.max, { error: SUMMARY_ERRORS[4] })),
    ),
  ),
);

/** The summary as the doctor sends it, to save or to end with. Ending needs a diagnosis and a plan. */
export const SummarySchema = z
  .object({
    intent: z.enum([CLOSING_INTENTS.saveSummary, CLOSING_INTENTS.end]),
    observations: summaryField,
    diagnosis: summaryField,
    treatmentPlan: summaryField,
    newPhotosInDays,
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
