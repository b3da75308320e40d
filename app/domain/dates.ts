// Dates as Qoda shows them, and the one place that decides how: Amharic readers get the Ethiopian
// calendar ("ኅዳር 16 ቀን 2019 ዓ.ም."), English readers the Gregorian one ("25 Nov 2026"), and both a
// 24-hour clock. Always in Ethiopia's time zone, so the server's render and the browser's agree.

const QODA_TIME_ZONE = "Africa/Addis_Ababa";

/** "Amete Mihret", the Ethiopian era, as written after a year; ICU's own marker is the Latin "AM". */
const ETHIOPIAN_ERA = "ዓ.ም.";

type When = Date | string | number;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter in Ethiopia's time zone, made once per shape (lists format hundreds of dates). */
function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone: QODA_TIME_ZONE });
    formatters.set(key, made);
  }
  return made;
}

const readsEthiopian = (language: string) => language === "am";

/**
 * The Ethiopian date `when` falls on in Addis Ababa: day and year as numbers, the month by its Amharic
 * name (መስከረም … ጳጉሜን). Read from the parts, so ICU's era marker never reaches the reader.
 */
function ethiopianDate(when: When) {
  const parts = formatter("am-ET", { calendar: "ethiopic", year: "numeric", month: "long", day: "numeric" }).formatToParts(new Date(when));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((found) => found.type === type)?.value ?? "";
  return { day: part("day"), month: part("month"), year: part("year") };
}

/** Today's date in Ethiopia as an ISO date (YYYY-MM-DD, Gregorian), which compares as text. */
export function todayIsoDate(now = new Date()): string {
  return formatter("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** A day: "25 Nov 2026", or in Amharic "ኅዳር 16 ቀን 2019 ዓ.ም.". */
export function formatDay(when: When, language: string): string {
  if (!readsEthiopian(language)) return formatter("en-GB", { dateStyle: "medium" }).format(new Date(when));
  const { day, month, year } = ethiopianDate(when);
  return `${month} ${day} ቀን ${year} ${ETHIOPIAN_ERA}`;
}

/** A day in full, as a document's date: "21 November 2026", or (Ethiopian months have no short names) "ኅዳር 12 ቀን 2019 ዓ.ም.". */
export function formatLongDay(when: When, language: string): string {
  if (!readsEthiopian(language)) return formatter("en-GB", { dateStyle: "long" }).format(new Date(when));
  return formatDay(when, language);
}

/** A day without its year, for charts and lists within a month or two: "25 Nov", or "ኅዳር 16". */
export function formatShortDay(when: When, language: string): string {
  if (!readsEthiopian(language)) return formatter("en-GB", { day: "numeric", month: "short" }).format(new Date(when));
  const { day, month } = ethiopianDate(when);
  return `${month} ${day}`;
}

/** A month and its year, the heading of a month's figures: "November 2026", or "ኅዳር 2019 ዓ.ም.". */
export function formatMonth(when: When, language: string): string {
  if (!readsEthiopian(language)) return formatter("en-GB", { year: "numeric", month: "long" }).format(new Date(when));
  const { month, year } = ethiopianDate(when);
  return `${month} ${year} ${ETHIOPIAN_ERA}`;
}

/** A year: "2026", or "2019 ዓ.ም.". */
export function formatYear(when: When, language: string): string {
  if (!readsEthiopian(language)) return formatter("en-GB", { year: "numeric" }).format(new Date(when));
  return `${ethiopianDate(when).year} ${ETHIOPIAN_ERA}`;
}

/**
 * A time of day on a 24-hour clock, Addis Ababa time ("15:45"), the same in both languages: in Amharic
 * a 12-hour time would be read on the Ethiopian clock, six hours off.
 */
export function formatTime(when: When): string {
  return formatter("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(when));
}

/** A day and its time: "28 Nov 2026, 15:45", or "ኅዳር 19 ቀን 2019 ዓ.ም. 15:45". */
export function formatMoment(when: When, language: string): string {
  if (!readsEthiopian(language)) {
    return formatter("en-GB", { dateStyle: "medium", timeStyle: "short", hourCycle: "h23" }).format(new Date(when));
  }
  return `${formatDay(when, language)} ${formatTime(when)}`;
}

/** A day on a document (a receipt, a summary): in English the Ethiopian date beside the Gregorian one. */
export function formatDocumentDay(when: When, language: string): string {
  return readsEthiopian(language) ? formatDay(when, language) : `${formatDay(when, language)} (${formatDay(when, "am")})`;
}

/** A moment on a document: in English with the Ethiopian date beside, as on `formatDocumentDay`. */
export function formatDocumentMoment(when: When, language: string): string {
  return readsEthiopian(language) ? formatMoment(when, language) : `${formatMoment(when, language)} (${formatDay(when, "am")})`;
}
