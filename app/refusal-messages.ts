// The domain refuses with codes; these are the words (translation keys) each code is shown with, on
// whichever page or answer shows it.
import type { ClosingRefusal } from "~/domain/consultation-closing";
import type { DecisionRefusal } from "~/domain/consultation-decisions";
import { type WaitTime, waitTime } from "~/domain/rate-limits";
import type { TextKey } from "~/i18n";

/** The message for a refused decision (accept, decline, withdraw). */
export const DECISION_REFUSAL_MESSAGES = {
  not_found: "consultation.errors.notFound",
  not_permitted: "consultation.errors.noPermission",
  already_taken: "consultation.errors.alreadyAccepted",
  declined: "consultation.errors.alreadyDeclined",
  withdrawn: "consultation.errors.alreadyWithdrawn",
  not_waiting: "consultation.errors.notWaiting",
  reserved: "followUp.reservedForItsDoctor",
} as const satisfies Record<DecisionRefusal, TextKey>;

/** The message for a refused summary save or end of a consultation. */
export const CLOSING_REFUSAL_MESSAGES = {
  not_found: "consultation.errors.notFound",
  not_permitted: "consultation.errors.noPermission",
  already_completed: "doctor.closing.alreadyCompleted",
  not_in_progress: "doctor.closing.notInProgress",
} as const satisfies Record<ClosingRefusal, TextKey>;

const WAIT_MESSAGES = {
  seconds: "forms.errors.rateLimitedSeconds",
  minutes: "forms.errors.rateLimited",
} as const satisfies Record<WaitTime["unit"], TextKey>;

/** A translation key and its values: what to tell a person who must wait. */
export interface WaitMessage {
  key: (typeof WAIT_MESSAGES)[WaitTime["unit"]];
  values: Record<string, number>;
}

/** What to tell a person who must wait `retryAfterMs`. */
export function waitMessage(retryAfterMs: number): WaitMessage {
  const { unit, count } = waitTime(retryAfterMs);
  return { key: WAIT_MESSAGES[unit], values: { count } };
}
