// CSV for accountants' spreadsheets (RFC 4180): every cell quoted, quotes doubled, lines ended by CRLF.
// A text cell that a spreadsheet would read as a formula (=, +, -, @ first) is written with a leading
// apostrophe, so a name typed into a form can never run as one. Numbers and the birr amounts our own
// code writes from santim are written plainly: a negative amount is a number, not a formula.
import { birrDecimal } from "./money";

const FORMULA_START = /^[=+\-@\t\r]/;

/** An amount in santim, written as birr with two decimals (`-120.00`): a number to the spreadsheet. */
export interface BirrAmount {
  readonly santim: number;
}

export const birrAmount = (santim: number): BirrAmount => ({ santim });

export type CsvCell = string | number | null | BirrAmount;

function cell(value: CsvCell): string {
  if (value === null) return '""';
  if (typeof value === "number") return `"${value}"`;
  if (typeof value === "object") return `"${birrDecimal(value.santim)}"`;
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** A whole CSV document: a header row, then the rows, with a byte-order mark so spreadsheets read Amharic as UTF-8. */
export function csvDocument(header: string[], rows: CsvCell[][]): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n")}\r\n`;
}
