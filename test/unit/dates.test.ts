import { describe, expect, it } from "vitest";

import {
  formatDay,
  formatDocumentDay,
  formatDocumentMoment,
  formatLongDay,
  formatMoment,
  formatMonth,
  formatShortDay,
  formatTime,
  formatYear,
  todayIsoDate,
} from "~/domain/dates";
import { monthlyTotals } from "~/domain/earnings";

/** A moment given on Addis Ababa's clock (UTC+3 all year). */
const addis = (local: string) => new Date(`${local}+03:00`);

describe("an Amharic reader's dates", () => {
  it("are Ethiopian, with the era written ዓ.ም. and never ICU's Latin AM", () => {
    const day = addis("2026-11-25T10:00");
    expect(formatDay(day, "am")).toBe("ኅዳር 16 ቀን 2019 ዓ.ም.");
    expect(formatLongDay(day, "am")).toBe("ኅዳር 16 ቀን 2019 ዓ.ም.");
    expect(formatShortDay(day, "am")).toBe("ኅዳር 16");
    expect(formatMonth(day, "am")).toBe("ኅዳር 2019 ዓ.ም.");
    expect(formatYear(day, "am")).toBe("2019 ዓ.ም.");
    for (const text of [formatDay(day, "am"), formatMonth(day, "am"), formatMoment(day, "am")]) expect(text).not.toMatch(/AM|PM/);
  });

  it("fall on Addis Ababa's day, not UTC's, around midnight", () => {
    // Both moments are on 24 November in UTC; the second is already the 25th in Addis Ababa.
    expect(formatDay(new Date("2026-11-24T20:59:00Z"), "am")).toBe("ኅዳር 15 ቀን 2019 ዓ.ም.");
    expect(formatDay(new Date("2026-11-24T21:00:00Z"), "am")).toBe("ኅዳር 16 ቀን 2019 ዓ.ም.");
    expect(formatMoment(new Date("2026-11-24T21:30:00Z"), "am")).toBe("ኅዳር 16 ቀን 2019 ዓ.ም. 00:30");
  });

  it("begin the year on Meskerem 1, 11 September, or the 12th before a Gregorian leap year", () => {
    expect(formatDay(addis("2026-09-11T00:00"), "am")).toBe("መስከረም 1 ቀን 2019 ዓ.ም.");
    expect(formatDay(addis("2026-09-10T23:59"), "am")).toBe("ጳጉሜን 5 ቀን 2018 ዓ.ም.");
    expect(formatYear(addis("2026-09-10T23:59"), "am")).toBe("2018 ዓ.ም.");
    // 2019 is a leap year of the Ethiopian calendar: Pagume has six days and the new year waits a day.
    expect(formatDay(addis("2027-09-11T12:00"), "am")).toBe("ጳጉሜን 6 ቀን 2019 ዓ.ም.");
    expect(formatDay(addis("2027-09-12T00:00"), "am")).toBe("መስከረም 1 ቀን 2020 ዓ.ም.");
  });

  it("name all thirteen months, Pagume last", () => {
    const newYear = addis("2026-09-11T12:00").getTime();
    const months = Array.from({ length: 13 }, (_, index) => formatMonth(new Date(newYear + index * 30 * 86_400_000), "am"));
    expect(months).toEqual(
      ["መስከረም", "ጥቅምት", "ኅዳር", "ታኅሣሥ", "ጥር", "የካቲት", "መጋቢት", "ሚያዝያ", "ግንቦት", "ሰኔ", "ሐምሌ", "ነሐሴ", "ጳጉሜን"].map(
        (month) => `${month} 2019 ዓ.ም.`,
      ),
    );
    expect(formatDay(addis("2026-09-06T12:00"), "am")).toBe("ጳጉሜን 1 ቀን 2018 ዓ.ም.");
  });

  it("group a doctor's earnings by Ethiopian month, which straddles two Gregorian ones", () => {
    const releases = [addis("2026-11-15T12:00"), addis("2026-11-05T12:00"), addis("2026-10-20T12:00")].map((releasedAt) => ({
      releasedAt,
      amountSantim: 100,
    }));
    expect(monthlyTotals(releases, (date) => formatMonth(date, "am")).map(({ month, consultations }) => [month, consultations])).toEqual([
      ["ኅዳር 2019 ዓ.ም.", 1],
      ["ጥቅምት 2019 ዓ.ም.", 2],
    ]);
    expect(monthlyTotals(releases, (date) => formatMonth(date, "en")).map(({ month, consultations }) => [month, consultations])).toEqual([
      ["November 2026", 2],
      ["October 2026", 1],
    ]);
  });
});

describe("times", () => {
  it("are on a 24-hour clock in Addis Ababa time, in both languages", () => {
    const afternoon = new Date("2026-11-25T12:30:00Z");
    expect(formatTime(afternoon)).toBe("15:30");
    expect(formatMoment(afternoon, "am")).toBe("ኅዳር 16 ቀን 2019 ዓ.ም. 15:30");
    expect(formatMoment(afternoon, "en")).toBe("25 Nov 2026, 15:30");
    expect(formatMoment(afternoon, "am")).not.toMatch(/ከሰዓት|ጥዋት|ጠዋት|ምሽት|3:30/);
    // Just after midnight is 00:30, never 24:30 or 12:30.
    expect(formatTime(new Date("2026-11-24T21:30:00Z"))).toBe("00:30");
  });
});

describe("an English reader's dates", () => {
  it("stay Gregorian, in Addis Ababa time", () => {
    const day = new Date("2026-11-24T21:30:00Z");
    expect(formatDay(day, "en")).toBe("25 Nov 2026");
    expect(formatLongDay(day, "en")).toBe("25 November 2026");
    expect(formatShortDay(day, "en")).toBe("25 Nov");
    expect(formatMonth(day, "en")).toBe("November 2026");
    expect(formatYear(day, "en")).toBe("2026");
  });

  it("and today's date for comparisons stays an ISO Gregorian date, in Addis Ababa", () => {
    expect(todayIsoDate(new Date("2026-09-10T21:30:00Z"))).toBe("2026-09-11");
  });
});

describe("a document's dates (a receipt, a summary)", () => {
  it("give English readers the Ethiopian date beside the Gregorian one, and Amharic readers theirs alone", () => {
    const moment = new Date("2026-11-24T12:30:00Z");
    expect(formatDocumentDay(moment, "en")).toBe("24 Nov 2026 (ኅዳር 15 ቀን 2019 ዓ.ም.)");
    expect(formatDocumentMoment(moment, "en")).toBe("24 Nov 2026, 15:30 (ኅዳር 15 ቀን 2019 ዓ.ም.)");
    expect(formatDocumentDay(moment, "am")).toBe("ኅዳር 15 ቀን 2019 ዓ.ም.");
    expect(formatDocumentMoment(moment, "am")).toBe("ኅዳር 15 ቀን 2019 ዓ.ም. 15:30");
  });
});
