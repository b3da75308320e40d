import { describe, expect, it } from "vitest";

import {
  barLengths,
  dailySeries,
  DAY_MS,
  durationParts,
  ethiopianDayNumber,
  formatPercent,
  formatRating,
  medianFromWindow,
  medianWindow,
  rate,
  startOfEthiopianDay,
} from "~/domain/admin-figures";
import { MAX_OPENING_REASON_CHARS, openingReason } from "~/domain/admin-records";

describe("medians read from a sorted column", () => {
  it("point at the middle row, or the two middle rows of an even count", () => {
    expect(medianWindow(0)).toBeNull();
    expect(medianWindow(1)).toEqual({ offset: 0, limit: 1 });
    expect(medianWindow(2)).toEqual({ offset: 0, limit: 2 });
    expect(medianWindow(5)).toEqual({ offset: 2, limit: 1 });
    expect(medianWindow(10_000)).toEqual({ offset: 4_999, limit: 2 });
  });

  it("average the two middle values", () => {
    expect(medianFromWindow([])).toBeNull();
    expect(medianFromWindow([7])).toBe(7);
    expect(medianFromWindow([4, 8])).toBe(6);
  });

  it("agree with the median of the whole list", () => {
    // What the overview's query does: sort, read only the window's rows, take their median.
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const window = medianWindow(sorted.length);
      return window ? medianFromWindow(sorted.slice(window.offset, window.offset + window.limit)) : null;
    };
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([10, 1, 4, 3])).toBe(3.5);
    expect(median([5, 5, 100])).toBe(5);
  });
});

describe("rates and figures as shown", () => {
  it("is null when there is nothing to measure, else a fraction within 0..1", () => {
    expect(rate(0, 0)).toBeNull();
    expect(rate(3, 4)).toBe(0.75);
    expect(rate(5, 4)).toBe(1);
    expect(formatPercent(null)).toBe("–");
    expect(formatPercent(2 / 3)).toBe("67%");
    expect(formatPercent(1)).toBe("100%");
  });

  it("shows an average rating to one decimal", () => {
    expect(formatRating(null)).toBe("–");
    expect(formatRating(4)).toBe("4.0");
    expect(formatRating(4.666)).toBe("4.7");
  });
});

describe("durations", () => {
  const MIN = 60_000;
  it("show the two largest units, rounded", () => {
    expect(durationParts(0)).toEqual([{ unit: "seconds", value: 0 }]);
    expect(durationParts(-5_000)).toEqual([{ unit: "seconds", value: 0 }]);
    expect(durationParts(42_000)).toEqual([{ unit: "seconds", value: 42 }]);
    expect(durationParts(12 * MIN + 20_000)).toEqual([{ unit: "minutes", value: 12 }]);
    expect(durationParts(60 * MIN)).toEqual([{ unit: "hours", value: 1 }]);
    expect(durationParts(65 * MIN)).toEqual([
      { unit: "hours", value: 1 },
      { unit: "minutes", value: 5 },
    ]);
    expect(durationParts(2 * DAY_MS + 3 * 60 * MIN + 10 * MIN)).toEqual([
      { unit: "days", value: 2 },
      { unit: "hours", value: 3 },
    ]);
    expect(durationParts(DAY_MS)).toEqual([{ unit: "days", value: 1 }]);
  });
});

describe("days in Ethiopian time", () => {
  it("start at 21:00 UTC", () => {
    const day = ethiopianDayNumber(Date.UTC(2026, 10, 22, 21, 0));
    expect(ethiopianDayNumber(Date.UTC(2026, 10, 22, 20, 59))).toBe(day - 1);
    expect(startOfEthiopianDay(day)).toBe(Date.UTC(2026, 10, 22, 21, 0));
  });

  it("fill a series of the last days, oldest first, with zeros where nothing happened", () => {
    expect(
      dailySeries(
        [
          { day: 100, total: 4 },
          { day: 98, total: 1 },
          { day: 90, total: 9 },
        ],
        100,
        3,
      ),
    ).toEqual([
      { day: 98, total: 1 },
      { day: 99, total: 0 },
      { day: 100, total: 4 },
    ]);
  });
});

describe("chart bars", () => {
  it("scale to the largest value, keep small values visible and zero at zero", () => {
    expect(barLengths([0, 0], 100)).toEqual([0, 0]);
    expect(barLengths([], 100)).toEqual([]);
    expect(barLengths([10, 5, 0], 100)).toEqual([100, 50, 0]);
    expect(barLengths([1000, 1], 100, 2)).toEqual([100, 2]);
  });
});

describe("the reason for opening a consultation", () => {
  it("is required, cleaned to one line and capped", () => {
    expect(openingReason(undefined)).toEqual({ ok: false, refusal: "required" });
    expect(openingReason(["x"])).toEqual({ ok: false, refusal: "required" });
    expect(openingReason(" \u0000\u202e ")).toEqual({ ok: false, refusal: "required" });
    expect(openingReason("  Refund\r\nrequest\u0007 #12  ")).toEqual({ ok: true, text: "Refund request #12" });
    expect(openingReason("ሀ".repeat(MAX_OPENING_REASON_CHARS))).toEqual({ ok: true, text: "ሀ".repeat(MAX_OPENING_REASON_CHARS) });
    expect(openingReason("a".repeat(MAX_OPENING_REASON_CHARS + 1))).toEqual({ ok: false, refusal: "tooLong" });
  });
});
