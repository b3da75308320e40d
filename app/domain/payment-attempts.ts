// A payment attempt's allowed moves (docs/decisions/0046). Each attempt is recorded `initialized` before
// the provider is called; the provider's verify then settles it: paid (it started its consultation),
// failed (refused or abandoned), or paid after expiry (paid, but too late: kept and refunded). A failed
// attempt a later verify finds paid after all is paid or late like an open one; a paid one never moves
// again, whatever the provider says later (a chargeback is the escrow's move).
import type { StatusMoves } from "./status-moves";

export const PAYMENT_STATUSES = ["initialized", "paid", "failed", "paid_after_expiry"] as const;
type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_MOVES: StatusMoves<PaymentStatus> = {
  initialized: ["paid", "failed", "paid_after_expiry"],
  failed: ["paid", "paid_after_expiry"],
  paid: [],
  paid_after_expiry: [],
};
