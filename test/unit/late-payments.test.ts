import { describe, expect, it } from "vitest";

import { lateReason } from "~/domain/late-payments";

describe("why a payment came too late", () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 9, minute));

  it("is a second payment when another was received first, else a closed window", () => {
    expect(lateReason(at(10), [at(5)])).toBe("already_paid");
    expect(lateReason(at(10), [at(10)])).toBe("already_paid");
    // Paid again later (after the window, once accepted anew): this one was late for its own window.
    expect(lateReason(at(10), [at(20)])).toBe("window_closed");
    expect(lateReason(at(10), [])).toBe("window_closed");
  });
});
