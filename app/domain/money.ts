// Money, in santim: every amount Qoda stores, adds or compares is a whole number of santim
// (1 birr = 100 santim), never a fraction of a birr. Birr appear only at the edges: in what people read,
// and in the decimal strings of Chapa's wire format.
import { type SQL, sql, type SQLWrapper } from "drizzle-orm";

export const SANTIM_PER_BIRR = 100;

/** What a patient pays for one consultation. */
export const CONSULTATION_FEE_SANTIM = 150 * SANTIM_PER_BIRR;

/**
 * The platform's share of a released consultation fee, in basis points (1/100 of a percent): the one
 * place it is set. The doctor's share is the rest. Stated to doctors in the terms and on their earnings.
 */
const PLATFORM_FEE_BASIS_POINTS = 2_000;
const BASIS_POINTS = 10_000;

/** The platform fee as people read it: "20" (percent). */
export const PLATFORM_FEE_PERCENT = PLATFORM_FEE_BASIS_POINTS / 100;

/** A released amount split between the doctor and the platform; the two always add up to the whole. */
export function splitRelease(amountSantim: number): { doctorSantim: number; platformSantim: number } {
  if (!Number.isSafeInteger(amountSantim) || amountSantim < 0) throw new RangeError(`not an amount in santim: ${amountSantim}`);
  // Rounded half up to the santim; the doctor gets exactly what is left.
  const platformSantim = Math.floor((amountSantim * PLATFORM_FEE_BASIS_POINTS + BASIS_POINTS / 2) / BASIS_POINTS);
  return { doctorSantim: amountSantim - platformSantim, platformSantim };
}

/**
 * `splitRelease`'s platform share in SQL, over a column of whole santim: the same arithmetic, as SQLite
 * does it for integers (its division of non-negative integers is the floor). The rates are written into
 * the statement as integer literals, since a bound number may arrive as a float and divide as one.
 */
export function platformShareSql(amountSantim: SQLWrapper): SQL<number> {
  return sql<number>`((${amountSantim} * ${sql.raw(String(PLATFORM_FEE_BASIS_POINTS))} + ${sql.raw(String(BASIS_POINTS / 2))}) / ${sql.raw(String(BASIS_POINTS))})`;
}

/**
 * A sum of santim as the database hands it back (a number, or the text drizzle's `sum` gives; null for
 * no rows), read exactly: a sum of whole santim is a whole number, and anything else is a bug, refused.
 */
export function santimFromSum(value: number | string | null | undefined): number {
  const santim =
    value === null || value === undefined ? 0 : typeof value === "number" ? value : /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(santim)) throw new RangeError(`not a sum of santim: ${String(value)}`);
  return santim;
}

/** Birr as people write them: "150", or "150.50" when there are santim. */
export function birrText(santim: number): string {
  const sign = santim < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(santim) / SANTIM_PER_BIRR);
  const rest = Math.abs(santim) % SANTIM_PER_BIRR;
  return rest === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(rest).padStart(2, "0")}`;
}

/** Birr with two decimals, as Chapa's requests and CSV files write them: "150.00". */
export function birrDecimal(santim: number): string {
  const sign = santim < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(santim) / SANTIM_PER_BIRR);
  return `${sign}${whole}.${String(Math.abs(santim) % SANTIM_PER_BIRR).padStart(2, "0")}`;
}

const DECIMAL_BIRR = /^(-?)(\d{1,12})(?:\.(\d{1,2})\d*)?$/;

/**
 * A birr amount as a provider writes it ("150.00", "150", 150, 150.5) in exact santim, read from its
 * digits (never through a float's multiplication); null when it is not an amount. Digits beyond the
 * santim are not money and are dropped only if they are zeros: "150.005" is not an amount.
 */
export function santimFromBirr(value: unknown): number | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : typeof value === "string" ? value.trim() : "";
  const match = DECIMAL_BIRR.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ""] = match;
  const extra = text.split(".")[1]?.slice(2) ?? "";
  if (/[^0]/.test(extra)) return null;
  const santim = Number(whole) * SANTIM_PER_BIRR + Number(fraction.padEnd(2, "0"));
  return sign ? -santim : santim;
}
