// CSV for accountants' spreadsheets (RFC 4180): every cell quoted, quotes doubled, lines ended by CRLF.
// A cell that a spreadsheet would read as a formula (=, +, -, @ first) is written with a leading
// apostrophe, so a name typed into a form can never run as one; amounts are written by the caller.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell as text; numbers are written as they are (a negative amount is not a formula). */
function cell(value: string | number | null): string {
  if (value === null) return '""';
  if (typeof value === "number") return `"${value}"`;
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** A whole CSV document: a header row, then the rows, with a byte-order mark so spreadsheets read Amharic as UTF-8. */
export function csvDocument(header: string[], rows: Array<Array<string | number | null>>): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n")}\r\n`;
}
