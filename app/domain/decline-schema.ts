// The decline form's schema. Only the server reads it (the form needs no script), so it lives apart
// from the intents and messages the doctors' pages ship.
import { z } from "zod/mini";

import { DECISION_INTENTS } from "./consultation-decisions";
import { DECLINE_REASONS, MAX_DECLINE_NOTE_CHARS } from "./consultation-status";
import { cleanText } from "./text-hygiene";

/** A doctor's decline: why (the patient is told), and their own words, required for "other". */
export const DeclineSchema = z
  .object({
    intent: z.literal(DECISION_INTENTS.decline),
    reason: z.enum(DECLINE_REASONS, { error: "consultation.declineForm.reasonRequired" }),
    note: z.pipe(
      z.optional(
        z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_DECLINE_NOTE_CHARS, { error: "forms.errors.tooLong" })),
      ),
      z.transform((note) => note || null),
    ),
  })
  .check(
    z.refine((form) => form.reason !== "other" || form.note !== null, {
      error: "consultation.declineForm.noteRequired",
      path: ["note"],
      when: (payload) => (payload.value as { reason?: unknown }).reason === "other",
    }),
  );
