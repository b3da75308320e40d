// Closing a consultation: the doctor's summary (observations, diagnosis, treatment plan, and, if they
// wish, new photos in a number of days), editable by the assigned doctor until the consultation is
// completed, and ending it, which needs a diagnosis and a treatment plan. The summary form's schema is
// read by the server only (the form needs no script), so it lives apart (summary-schema.ts) from the
// intents and messages the doctor's page ships.

export const CLOSING_INTENTS = { saveSummary: "save-summary", end: "end-consultation" } as const;

/** Every error the summary form can come back with (its page shows them in words the server gives it). */
export const SUMMARY_ERRORS = [
  "forms.errors.tooLong",
  "forms.errors.invalid",
  "doctor.closing.diagnosisRequired",
  "doctor.closing.planRequired",
  "followUp.newPhotos.range",
] as const;

export type ClosingRefusal = "not_found" | "not_permitted" | "already_completed" | "not_in_progress";
