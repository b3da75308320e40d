import { describe, expect, it } from "vitest";

import { closeRefusal, confirmsClosing, purgeDateOf, recordRetention } from "~/domain/retention";

describe("closing an account", () => {
  it("is confirmed by either language's word, case and spaces aside, and by nothing else", () => {
    for (const typed of ["CLOSE", "close", "  Close ", "ይዘጋ", " ይዘጋ"]) expect(confirmsClosing(typed), typed).toBe(true);
    for (const typed of ["", "yes", "CLOSED", "ዝጋ", null, undefined, 5]) expect(confirmsClosing(typed), String(typed)).toBe(false);
  });

  it("is refused for an open consultation first, then for unsettled money", () => {
    expect(closeRefusal({ openConsultations: 1, unsettledMoney: 1 })).toBe("active_consultation");
    expect(closeRefusal({ openConsultations: 0, unsettledMoney: 1 })).toBe("money_held");
    expect(closeRefusal({ openConsultations: 0, unsettledMoney: 0 })).toBeNull();
  });
});

describe("the purge date", () => {
  const closedAt = new Date("2026-11-26T08:00:00Z");

  it("is a year after the last consultation", () => {
    expect(purgeDateOf(new Date("2026-10-01T10:00:00Z"), closedAt)).toEqual(new Date("2027-10-01T10:00:00Z"));
  });

  it("is never before the closing: a record older than a year goes at the next run of the job", () => {
    expect(purgeDateOf(new Date("2024-03-01T10:00:00Z"), closedAt)).toEqual(closedAt);
    expect(purgeDateOf(null, closedAt)).toEqual(closedAt);
  });

  it("reads as kept, scheduled or purged", () => {
    const on = new Date("2027-10-01T10:00:00Z");
    expect(recordRetention({ purgeAfter: null, purgedAt: null })).toEqual({ kind: "kept" });
    expect(recordRetention({ purgeAfter: on, purgedAt: null })).toEqual({ kind: "scheduled", on });
    expect(recordRetention({ purgeAfter: on, purgedAt: closedAt })).toEqual({ kind: "purged", on: closedAt });
  });
});
