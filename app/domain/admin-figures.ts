// The arithmetic of the admins' overview: medians read from a sorted column, rates, days in Ethiopian
// time, durations split into the units people read, and bar lengths for the small charts. Pure: the
// queries live in app/server/admin/overview.server.ts.

export const DAY_MS = 24 * 60 * 60_000;
/** Ethiopia keeps UTC+3 all year (no daylight saving), so a day there starts at 21:00 UTC. */
const ETHIOPIA_OFFSET_MS = 3 * 60 * 60_000;

/**
 * Which rows of `count` values, sorted, hold the median: the middle one, or the two middle ones when
 * the count is even. Read with `ORDER BY value LIMIT limit OFFSET offset`, so no query loads them all.
 */
export function medianWindow(count: number): { offset: number; limit: number } | null {
  if (!Number.isInteger(count) || count <= 0) return null;
  return { offset: Math.floor((count - 1) / 2), limit: count % 2 === 0 ? 2 : 1 };
}

/** The median from the value(s) `medianWindow` pointed at; null when there were none. */
export function medianFromWindow(values: number[]): number | null {
  if (values.length === 0) return null;
  if (values.length === 1) return values[0]!;
  return (values[0]! + values[1]!) / 2;
}

/** `part` out of `whole` as a fraction from 0 to 1; null when there is nothing to measure. */
export function rate(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  return Math.min(1, Math.max(0, part / whole));
}

/** A fraction as a whole percentage ("83%"); a dash when unknown. */
export function formatPercent(fraction: number | null): string {
  return fraction === null ? "–" : `${Math.round(fraction * 100)}%`;
}

/** An average rating to one decimal ("4.5"); a dash when there are no ratings. */
export function formatRating(average: number | null): string {
  return average === null ? "–" : (Math.round(average * 10) / 10).toFixed(1);
}

/** The number of the Ethiopian calendar day (counted from 1970-01-01, Addis Ababa time) that `ms` falls in. */
export function ethiopianDayNumber(ms: number): number {
  return Math.floor((ms + ETHIOPIA_OFFSET_MS) / DAY_MS);
}

/** When Ethiopian day number `day` begins, in ms since the epoch. */
export function startOfEthiopianDay(day: number): number {
  return day * DAY_MS - ETHIOPIA_OFFSET_MS;
}

export interface DayCount {
  /** The day's number (`ethiopianDayNumber`). */
  day: number;
  total: number;
}

/** One entry per day for the `days` days ending with today (oldest first), days without rows counting 0. */
export function dailySeries(rows: DayCount[], today: number, days: number): DayCount[] {
  const totals = new Map(rows.map((row) => [row.day, row.total]));
  return Array.from({ length: days }, (_, index) => {
    const day = today - days + 1 + index;
    return { day, total: totals.get(day) ?? 0 };
  });
}

export type DurationUnit = "days" | "hours" | "minutes" | "seconds";

/**
 * A duration as the two largest units that say something ("1 h 5 min", "2 d 3 h"), rounded to its
 * smallest shown unit; under a minute shows seconds. Negative durations (clock skew) count as zero.
 */
export function durationParts(ms: number): Array<{ unit: DurationUnit; value: number }> {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return [{ unit: "seconds", value: seconds }];
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return [{ unit: "minutes", value: minutes }];
  if (minutes < 24 * 60) {
    const parts = [{ unit: "hours" as const, value: Math.floor(minutes / 60) }];
    return minutes % 60 ? [...parts, { unit: "minutes" as const, value: minutes % 60 }] : parts;
  }
  const hours = Math.round(minutes / 60);
  const parts = [{ unit: "days" as const, value: Math.floor(hours / 24) }];
  return hours % 24 ? [...parts, { unit: "hours" as const, value: hours % 24 }] : parts;
}

/**
 * Bar lengths for a chart `length` units long: the largest value fills it, a value above zero is
 * never drawn thinner than `minimum` (so it does not vanish), zero stays zero.
 */
export function barLengths(values: number[], length: number, minimum = 1): number[] {
  const largest = Math.max(0, ...values);
  if (largest === 0) return values.map(() => 0);
  return values.map((value) => (value <= 0 ? 0 : Math.max(minimum, (value / largest) * length)));
}
