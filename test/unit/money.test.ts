import { describe, expect, it } from "vitest";

import { santimFromSum } from "~/domain/money";
import { amountMismatchReason, readPayoutReason } from "~/domain/payouts";

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
