// Rules of the admins' record screens that are not queries: the reason an admin gives before reading a
// consultation, and how long that opening lasts.
import { cleanLine } from "~/domain/text-hygiene";

/** The most characters a reason for opening a consultation may have. */
export const MAX_OPENING_REASON_CHARS = 200;
/** How long one opening (with its reason, in the audit log) lets the admin read the consultation. */
export const OPENING_GRANT_MS = 30 * 60_000;

export type OpeningReasonRefusal = "required" | "tooLong";

/**
 * The reason as it is recorded: one line, hidden characters removed, spaces trimmed and collapsed.
 * Empty is refused, and so is a reason over the cap (the admin shortens it; nothing is cut silently).
 */
export function openingReason(raw: unknown): { ok: true; reason: string } | { ok: false; refusal: OpeningReasonRefusal } {
  const reason = typeof raw === "string" ? cleanLine(raw).replace(/\s+/g, " ").trim() : "";
  if (reason === "") return { ok: false, refusal: "required" };
  if ([...reason].length > MAX_OPENING_REASON_CHARS) return { ok: false, refusal: "tooLong" };
  return { ok: true, reason };
}

/** The intent of the payments screen's one action. */
export const MARK_REFUNDED_INTENT = "mark-refunded";
