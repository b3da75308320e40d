// Text people type is stored and shown to others (doctors' live lists, emails, admin screens), so it
// is cleaned first: no control characters that could forge lines in a log or an email header, and no
// invisible direction or width characters that make text display as something other than what it is.

/** Bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069) and direction marks (LRM, RLM, ALM). */
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
/** Zero-width space and byte-order mark: invisible, and never needed in a name or a description. */
const INVISIBLE = /[\u200b\ufeff]/g;
/** C0 controls but tab, newline and carriage return, DEL, and C1 controls. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Every way to break a line: CR LF, CR, LF, and the Unicode line and paragraph separators. */
const LINE_BREAKS = /\r\n?|[\n\u2028\u2029]/g;

const withoutHidden = (text: string) => text.replace(CONTROLS, "").replace(DIRECTION_CONTROLS, "").replace(INVISIBLE, "");

/** A one-line value (a name, a code): line breaks and tabs become spaces, hidden characters go. */
export function cleanLine(text: string): string {
  return withoutHidden(text.replace(LINE_BREAKS, " ").replace(/\t/g, " "));
}

/** A free text (a complaint, a history): line breaks stay (as \n), tabs become spaces, hidden characters go. */
export function cleanText(text: string): string {
  return withoutHidden(text.replace(LINE_BREAKS, "\n").replace(/\t/g, " "));
}
