// Dates as Qoda shows them: in Ethiopia's time zone, so the server's render and the browser's agree.

export const QODA_TIME_ZONE = "Africa/Addis_Ababa";

const localeOf = (language: string) => (language === "am" ? "am-ET" : "en-GB");

/** Today's date in Ethiopia as an ISO date (YYYY-MM-DD), which compares as text. */
export function todayIsoDate(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: QODA_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** A day, e.g. "23 Nov 2026" (or its Amharic form). */
export function formatDay(date: Date | string, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { timeZone: QODA_TIME_ZONE, dateStyle: "medium" }).format(new Date(date));
}

/** A month and its year ("November 2026"), the heading of a month's figures. */
export function formatMonth(date: Date | string, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { timeZone: QODA_TIME_ZONE, year: "numeric", month: "long" }).format(new Date(date));
}

/** A day and its time on a 24-hour clock, Addis Ababa time ("28 Nov 2026, 15:45"): never read on the Ethiopian clock. */
export function formatMoment(date: Date | string, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), {
    timeZone: QODA_TIME_ZONE,
    dateStyle: "medium",
    timeStyle: "short",
    hourCycle: "h23",
  }).format(new Date(date));
}
