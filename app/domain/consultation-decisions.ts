// Deciding on a waiting request: the forms' intents, and what a decision came to (a refusal code; app/refusal-messages.ts
// has its words). Shared by the pages, the actions and the doctors' bell (so no zod here: see decline-schema.ts).
import type { ConsultationStatus, DeclineReason } from "./consultation-status";

/** The `intent` a decision form posts. */
export const DECISION_INTENTS = { accept: "accept", decline: "decline", withdraw: "withdraw" } as const;
/** The patient's deleting of a completed consultation's photos (its form loads only when it is shown). */
export const DELETE_PHOTOS_INTENT = "delete-photos";

/** `reserved`: a follow-up still waiting for its own doctor alone. */
export type DecisionRefusal = "not_found" | "not_permitted" | "already_taken" | "declined" | "withdrawn" | "not_waiting" | "reserved";
export type DecisionOutcome = { ok: true } | { ok: false; reason: DecisionRefusal };

/** What the consultation page's action answers a decision posted from elsewhere (the bell's Accept): the intent, and why not. */
export interface DecisionAnswer {
  intent: string | null;
  refusal: DecisionRefusal | null;
}

/**
 * Why a request a doctor wanted to decide on is not theirs to decide on: taken, declined, withdrawn, or
 * (still waiting) kept for another doctor for now.
 */
export function whyNotWaiting(consultation: { status: ConsultationStatus; declineReason: DeclineReason | null }): DecisionRefusal {
  if (consultation.status === "cancelled") return consultation.declineReason ? "declined" : "withdrawn";
  if (consultation.status === "awaiting_assets") return "not_found";
  if (consultation.status === "pending") return "reserved";
  return "already_taken";
}

/** A refused decision's HTTP status: gone (404), not theirs to make (403, also while kept for another doctor), or no longer possible (409). */
export function refusalHttpStatus(refusal: DecisionRefusal): 404 | 403 | 409 {
  return refusal === "not_found" ? 404 : refusal === "not_permitted" || refusal === "reserved" ? 403 : 409;
}

/** Where "Start a new consultation" leads after a decline: for unclear photos, a new draft with the same words. */
export function startAgainPath(declinedId: string, reason: DeclineReason): string {
  return reason === "photos_unclear" ? `/patient/new-consultation?from=${declinedId}` : "/patient/new-consultation";
}
