// A doctor's earnings by month: releases summed under the month the reader's calendar puts them in.

export interface MonthTotal {
  month: string;
  amountSantim: number;
  consultations: number;
}

/** Releases (newest first) summed by month, newest month first; `monthOf` names a date's month. */
export function monthlyTotals(releases: Array<{ releasedAt: Date; amountSantim: number }>, monthOf: (date: Date) => string): MonthTotal[] {
  const months: MonthTotal[] = [];
  for (const release of releases) {
    const month = monthOf(release.releasedAt);
    const last = months.at(-1);
    if (last?.month === month) {
      last.amountSantim += release.amountSantim;
      last.consultations += 1;
    } else months.push({ month, amountSantim: release.amountSantim, consultations: 1 });
  }
  return months;
}
