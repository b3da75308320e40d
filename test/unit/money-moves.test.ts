import { describe, expect, it } from "vitest";

import { DISPUTE_MOVES, DISPUTE_STATUSES } from "~/domain/disputes";
import { ESCROW_MOVES, ESCROW_STATUSES } from "~/domain/escrow";
import { PAYMENT_MOVES, PAYMENT_STATUSES } from "~/domain/payment-attempts";
import { PAYOUT_MOVES, PAYOUT_STATUSES } from "~/domain/payouts";
import { REFUND_MOVES, REFUND_STATUSES } from "~/domain/refunds";
import { assertMove } from "~/domain/status-moves";

// Each money table's allowed moves (docs/decisions/0046): its writer checks every move against them.
describe("the money tables' moves", () => {
  it("list every status of each table, and only its statuses", () => {
    for (const [moves, statuses] of [
      [ESCROW_MOVES, ESCROW_STATUSES],
      [DISPUTE_MOVES, DISPUTE_STATUSES],
      [PAYMENT_MOVES, PAYMENT_STATUSES],
      [REFUND_MOVES, REFUND_STATUSES],
      [PAYOUT_MOVES, PAYOUT_STATUSES],
    ] as Array<[Record<string, readonly string[]>, readonly string[]]>) {
      expect(Object.keys(moves).sort()).toEqual([...statuses].sort());
      for (const targets of Object.values(moves)) {
        for (const target of targets) expect(statuses).toContain(target);
      }
    }
  });

  it("let an escrow out of review: held again when its doctor ends it, refunded by an admin, or charged back", () => {
    expect([...ESCROW_MOVES.in_review].sort()).toEqual(["charged_back", "held", "refunded"]);
  });

  it("never move a refunded or charged back escrow, and a released one only when the provider takes it back", () => {
    expect(ESCROW_MOVES.refunded).toEqual([]);
    expect(ESCROW_MOVES.charged_back).toEqual([]);
    expect(ESCROW_MOVES.released).toEqual(["charged_back"]);
    expect(ESCROW_MOVES.disputed).not.toContain("held");
  });

  it("resolve a dispute once, and settle a payment attempt once", () => {
    expect(DISPUTE_MOVES).toEqual({ open: ["resolved"], resolved: [] });
    expect(PAYMENT_MOVES.paid).toEqual([]);
    expect(PAYMENT_MOVES.paid_after_expiry).toEqual([]);
    expect(PAYMENT_MOVES.initialized).toEqual(expect.arrayContaining(["paid", "failed", "paid_after_expiry"]));
  });

  it("refuse to build a move the table does not list, naming it", () => {
    expect(() => assertMove("escrows", ESCROW_MOVES, ["held", "in_review"], "refunded")).not.toThrow();
    expect(() => assertMove("escrows", ESCROW_MOVES, ["refunded"], "held")).toThrow("escrows: no move from refunded to held");
    expect(() => assertMove("escrows", ESCROW_MOVES, ["held", "released"], "refunded")).toThrow("from released to refunded");
    expect(() => assertMove("disputes", DISPUTE_MOVES, ["resolved"], "open")).toThrow();
    expect(() => assertMove("payments", PAYMENT_MOVES, [], "paid")).toThrow();
  });
});
