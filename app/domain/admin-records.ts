// Rules of the admins' record screens that are not queries: the reason an admin gives before reading a
// consultation, and how long that opening lasts.
import { cleanLine } from "~/domain/text-hygiene";

/** The most characters a reason for opening a consultation may have. */
export const MAX_OPENING_REASON_CHARS = 200;
/** How long one opening (with its reason, in the audit log) lets the admin read the consultation. */
export const OPENING_GRANT_MS = 30 * 60_000;

export type RequiredLineRefusal = "required" | "tooLong";

/**
 * A reason or note as it is recorded: one line, hidden characters removed, spaces trimmed and collapsed.
 * Empty is refused, and so is one over the cap (the admin shortens it; nothing is cut silently).
 */
function requiredLine(raw: unknown, maxChars: number): { ok: true; text: string } | { ok: false; refusal: RequiredLineRefusal } {
  const text = typeof raw === "string" ? cleanLine(raw).replace(/\s+/g, " ").trim() : "";
  if (text === "") return { ok: false, refusal: "required" };
  if ([...text].length > maxChars) return { ok: false, refusal: "tooLong" };
  return { ok: true, text };
}

/** Why an admin opens a consultation. */
export const openingReason = (raw: unknown) => requiredLine(raw, MAX_OPENING_REASON_CHARS);

/** The intent of the payments screen's one action: a refund an admin made outside the provider. */
export const MARK_REFUNDED_INTENT = "mark-refunded";

/** The longest note an admin gives for a refund made outside the provider. */
export const MAX_OUTSIDE_REFUND_NOTE_CHARS = 500;

/** Why a refund was made outside the provider. */
export const outsideRefundNote = (raw: unknown) => requiredLine(raw, MAX_OUTSIDE_REFUND_NOTE_CHARS);

/** The intent of an admin's cancellation of a paid consultation its doctor cannot finish. */
export const CANCEL_PAID_INTENT = "cancel-paid";

/** Why an admin cancels a paid consultation (the patient and the doctor read it). */
export const cancellationNote = (raw: unknown) => requiredLine(raw, MAX_OUTSIDE_REFUND_NOTE_CHARS);
