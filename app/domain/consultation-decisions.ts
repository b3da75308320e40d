// Deciding on a waiting request: the forms' intents, the decline form's schema, what a decision came
// to, and the words that say so. Shared by the pages, the actions and the doctors' bell.
import { z } from "zod/mini";

import type { TextKey } from "~/i18n";

import { type ConsultationStatus, DECLINE_REASONS, type DeclineReason, MAX_DECLINE_NOTE_CHARS } from "./consultation-status";
import { cleanText } from "./text-hygiene";

/** The `intent` a decision form posts. */
export const DECISION_INTENTS = { accept: "accept", decline: "decline", withdraw: "withdraw" } as const;

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

export type DecisionRefusal = "not_found" | "not_permitted" | "already_taken" | "declined" | "withdrawn" | "not_waiting";
export type DecisionOutcome = { ok: true } | { ok: false; reason: DecisionRefusal };

/** Why a request a doctor wanted to decide on is no longer waiting: taken, declined, or withdrawn. */
export function whyNotWaiting(consultation: { status: ConsultationStatus; declineReason: DeclineReason | null }): DecisionRefusal {
  if (consultation.status === "cancelled") return consultation.declineReason ? "declined" : "withdrawn";
  if (consultation.status === "awaiting_assets") return "not_found";
  return "already_taken";
}

/** The message (a translation key) for a refused decision, wherever it is shown. */
export const DECISION_REFUSAL_MESSAGES = {
  not_found: "consultation.errors.notFound",
  not_permitted: "consultation.errors.noPermission",
  already_taken: "consultation.errors.alreadyAccepted",
  declined: "consultation.errors.alreadyDeclined",
  withdrawn: "consultation.errors.alreadyWithdrawn",
  not_waiting: "consultation.errors.notWaiting",
} as const satisfies Record<DecisionRefusal, TextKey>;

/** A refused decision's HTTP status: gone (404), not theirs to make (403), or no longer possible (409). */
export function refusalHttpStatus(refusal: DecisionRefusal): 404 | 403 | 409 {
  return refusal === "not_found" ? 404 : refusal === "not_permitted" ? 403 : 409;
}
