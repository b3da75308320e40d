// Our books against the payment provider's (docs/decisions/0045): every transaction, refund and transfer
// of a period matched one to one by reference and amount, and what we believe the provider holds
// against its balance. A difference is kept with what each side says until an admin resolves it.

/**
 * What a difference is: a movement only one side knows; one both know with another amount or outcome;
 * the provider's charges not in our books; the balance apart; or money taken back by the patient's bank
 * or the provider without our asking (a chargeback, a reversal, a refund made in its dashboard).
 */
export const DIFFERENCE_KINDS = [
  "missing_at_provider",
  "missing_in_books",
  "amount_differs",
  "status_differs",
  "balance_differs",
  "charged_back",
] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

/** What the difference is about: a payment (a charge), a refund, a payout (a transfer), or the balance. */
export const DIFFERENCE_SUBJECTS = ["payment", "refund", "payout", "balance"] as const;
export type DifferenceSubject = (typeof DIFFERENCE_SUBJECTS)[number];

export const DIFFERENCE_STATUSES = ["open", "resolved"] as const;

/** A run compares the movements of this many days back (a day's run overlaps the one before it). */
export const RECONCILIATION_PERIOD_DAYS = 3;

/** An admin's note on a difference they resolved: a sentence or a few. */
export const MAX_RESOLUTION_NOTE_CHARS = 1_000;
