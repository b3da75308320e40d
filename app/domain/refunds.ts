// Refunds through the payment provider (docs/decisions/0028): recorded before the provider is asked,
// asked again on a schedule while it cannot be reached, and settled only by what the provider says
// (its answer, its webhook, or a later check). One that keeps failing is shown to admins, never lost.
export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;

/** Why money goes back to a patient. */
export const REFUND_REASONS = ["late_payment", "duplicate_payment", "dispute", "cancelled"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** Where a refund was made: through the provider, or by an admin outside it (recorded with a reason). */
export const REFUND_CHANNELS = ["provider", "outside"] as const;

/**
 * Why a pending refund or payout waits for an admin instead of moving on by itself: the provider could
 * not be asked or gave no answer we can act on after every attempt, said a status word we do not know,
 * or moved another amount than ours. Never failed on such grounds: only a verify that says failed fails it.
 */
export const STUCK_REASONS = ["attempts_exhausted", "unknown_status", "amount_differs"] as const;
export type StuckReason = (typeof STUCK_REASONS)[number];

/**
 * Why a pending refund or payout goes before an admin after `asks` asks of the provider with no decision
 * (`unknownStatus`: its last answer was a status word we do not know), or null while it waits for the
 * next ask: only once the asks reach `maxAsks`.
 */
export function stuckReasonAfter(asks: number, maxAsks: number, unknownStatus: boolean): StuckReason | null {
  if (asks < maxAsks) return null;
  return unknownStatus ? "unknown_status" : "attempts_exhausted";
}

/** Times a refund is asked of the provider before an admin is asked to decide. */
export const MAX_REFUND_ATTEMPTS = 6;
/** Waits between attempts: 5 minutes, doubling (5, 10, 20, 40, 80 minutes). */
export function nextRefundAttemptAt(attempts: number, now: Date): Date {
  return new Date(now.getTime() + 5 * 60_000 * 2 ** Math.max(attempts - 1, 0));
}

/** Our own reference for a refund (Chapa takes it for idempotency): unique, within its characters. */
export const newRefundReference = () => `qoda-rf-${crypto.randomUUID()}`;

/**
 * A refund's allowed moves (docs/decisions/0045): pending until the provider's word settles it (succeeded)
 * or a verify confirms nothing was given back after a refusal (failed), or an admin records it made
 * outside the provider (succeeded); a failed one stays failed (an admin asks again under a new reference,
 * a new refund) and a succeeded one never moves again.
 */
export const REFUND_MOVES: Record<(typeof REFUND_STATUSES)[number], ReadonlyArray<(typeof REFUND_STATUSES)[number]>> = {
  pending: ["succeeded", "failed"],
  succeeded: [],
  failed: [],
};
