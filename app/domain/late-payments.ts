// A verified payment that could not start its consultation is refunded; the patient is told why.

export type LateReason = "window_closed" | "already_paid";

/**
 * Why a payment arrived too late: another payment of the same consultation had already been received
 * by then (the patient paid twice), or else its payment window had closed.
 */
export function lateReason(latePaidAt: Date | null, otherPaidAts: Date[]): LateReason {
  const before = (paidAt: Date) => latePaidAt === null || paidAt.getTime() <= latePaidAt.getTime();
  return otherPaidAts.some(before) ? "already_paid" : "window_closed";
}
