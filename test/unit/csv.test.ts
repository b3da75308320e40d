// The CSV a spreadsheet opens: text that could run as a formula is defused, amounts stay numbers.
import { describe, expect, it } from "vitest";

import { birrAmount, csvDocument } from "~/domain/csv";

const rowOf = (cells: Parameters<typeof csvDocument>[1][number]) => csvDocument(["a"], [cells]).split("\r\n")[1];

describe("csvDocument", () => {
  it("writes a negative amount of our own as a number, not as guarded text", () => {
    expect(rowOf([birrAmount(-12_000), birrAmount(5), birrAmount(0)])).toBe('"-120.00","0.05","0.00"');
    expect(rowOf([-120, 3])).toBe('"-120","3"');
  });

  it("keeps the guard on text that a spreadsheet would run as a formula", () => {
    expect(rowOf(["-120.00", "=SUM(A1)", "+1", "@x", 'say "hi"'])).toBe(`"'-120.00","'=SUM(A1)","'+1","'@x","say ""hi"""`);
  });
});
