import { describe, expect, it } from "vitest";

import { madeOutside, payoutSettled, refundSettled } from "~/domain/ledger";
import { santimFromSum } from "~/domain/money";
import { amountMismatchReason, MAX_PAYOUT_ASKS, readPayoutReason } from "~/domain/payouts";
import { readDifferenceDetail, storedDifferenceDetail } from "~/domain/reconciliation-details";
import { MAX_REFUND_ATTEMPTS, stuckReasonAfter } from "~/domain/refunds";

describe("a sum of santim from the database", () => {
  it("is read exactly, as a number or as drizzle's text, and no rows are zero", () => {
    expect(santimFromSum(12_000)).toBe(12_000);
    expect(santimFromSum("-15000")).toBe(-15_000);
    expect(santimFromSum("900719925474099")).toBe(900_719_925_474_099);
    expect(santimFromSum(null)).toBe(0);
    expect(santimFromSum(undefined)).toBe(0);
  });

  it("refuses anything that is not a whole number of santim", () => {
    for (const value of ["150.5", "1e3", "", "abc", 0.5, Number.NaN, "9007199254740993"])
      expect(() => santimFromSum(value)).toThrow(RangeError);
  });
});

describe("a payout's stored reason", () => {
  it("reads our own amount code back as numbers, and anything else as the provider's words", () => {
    expect(readPayoutReason(amountMismatchReason(14_000, 15_000))).toEqual({
      kind: "amount_mismatch",
      sentSantim: 14_000,
      expectedSantim: 15_000,
    });
    expect(readPayoutReason("Invalid account")).toEqual({ kind: "provider", words: "Invalid account" });
    expect(readPayoutReason("amount_mismatch: see the bank")).toEqual({ kind: "provider", words: "amount_mismatch: see the bank" });
  });
});

describe("a refund or payout the provider has not decided", () => {
  it("waits for the next ask until the asks are spent, then goes before an admin for the word we do not know or the asks", () => {
    for (const maxAsks of [MAX_REFUND_ATTEMPTS, MAX_PAYOUT_ASKS]) {
      expect(stuckReasonAfter(1, maxAsks, false)).toBeNull();
      expect(stuckReasonAfter(maxAsks - 1, maxAsks, true)).toBeNull();
      expect(stuckReasonAfter(maxAsks, maxAsks, false)).toBe("attempts_exhausted");
      expect(stuckReasonAfter(maxAsks, maxAsks, true)).toBe("unknown_status");
      expect(stuckReasonAfter(maxAsks + 1, maxAsks, false)).toBe("attempts_exhausted");
    }
  });
});

describe("money an admin paid outside the provider", () => {
  const refund = { reference: "qoda-rf-1", consultationId: "c1", paymentId: "p1", amountSantim: 15_000 };
  const payout = { reference: "qoda-po-1", doctorId: "d1", amountSantim: 12_000 };

  it("leaves where it was as paid_outside, under the settlement's own key", () => {
    expect(madeOutside({ from: "escrow", ...refund })).toEqual({
      idempotencyKey: "refund:qoda-rf-1:settled",
      kind: "refund_settled",
      consultationId: "c1",
      paymentId: "p1",
      lines: [
        { account: "escrow", subject: "c1", amountSantim: 15_000 },
        { account: "paid_outside", subject: "", amountSantim: -15_000 },
      ],
    });
    const inTransit = madeOutside({ from: "refunds_in_transit", ...refund });
    expect(inTransit.idempotencyKey).toBe(refundSettled(refund).idempotencyKey);
    expect(inTransit.lines[0]).toEqual({ account: "refunds_in_transit", subject: "c1", amountSantim: 15_000 });
    expect(madeOutside({ from: "payouts_in_transit", ...payout })).toEqual({
      ...payoutSettled(payout),
      lines: [
        { account: "payouts_in_transit", subject: "d1", amountSantim: 12_000 },
        { account: "paid_outside", subject: "", amountSantim: -12_000 },
      ],
    });
  });
});

describe("what a side says of a reconciliation difference, as its column keeps it", () => {
  it("reads back what was stored, the provider's word capped, and anything else as an English line from before", () => {
    for (const detail of [
      { says: "payout_status", status: "pending", taken: true },
      { says: "escrow_status", status: "released" },
      { says: "books_balance", inTransitSantim: 12_000 },
      { says: "no_transfer" },
    ] as const)
      expect(readDifferenceDetail(storedDifferenceDetail(detail))).toEqual(detail);
    expect(readDifferenceDetail(storedDifferenceDetail({ says: "provider_status", status: "x".repeat(500) }))).toEqual({
      says: "provider_status",
      status: "x".repeat(100),
    });
    for (const stored of ["Paid; escrow held", '{"says":"payment_status","status":"stolen"}', '{"says":"no_payment"', "null"])
      expect(readDifferenceDetail(stored)).toEqual({ says: "english", line: stored });
  });
});
