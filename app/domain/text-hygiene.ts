// Text people type is stored and shown to others (doctors' live lists, emails, admin screens), so it
// is cleaned first: no control characters that could forge lines in a log or an email header, and no
// bidirectional overrides that make text display as something other than what it is.

/** Bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069). */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
/** C0 controls but tab, newline and carriage return, DEL, and C1 controls. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** A one-line value (a name, a code): line breaks and tabs become spaces, controls go. */
export function cleanLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ").replace(CONTROLS, "").replace(BIDI_CONTROLS, "");
}

/** A free text (a complaint, a history): line breaks stay (as \n), tabs become spaces, controls go. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/\t/g, " ").replace(CONTROLS, "").replace(BIDI_CONTROLS, "");
}
