// A paid consultation's escrow hold: when its money may go to the doctor (docs/decisions/0028). The
// terms promise that the fee is held until the patient confirms the consultation is complete, or until
// 72 hours after the doctor ends it with no dispute open; a consultation that never ended properly waits
// for an admin instead.
import { type SQL, sql, type SQLWrapper } from "drizzle-orm";

import { DISPUTE_WINDOW_HOURS, ESCROW_RELEASE_HOURS } from "./constants.ts";
import type { ConsultationStatus } from "./consultation-status";
import type { StatusMoves } from "./status-moves";

/** `charged_back`: the patient's bank or the provider took the payment back without us (a chargeback, a reversal, a refund made in its dashboard). */
export const ESCROW_STATUSES = ["held", "disputed", "in_review", "released", "refunded", "charged_back"] as const;
export type EscrowStatus = (typeof ESCROW_STATUSES)[number];

/**
 * An escrow's allowed moves (docs/decisions/0046): held until the patient confirms or the hold falls due
 * (released), a dispute freezes it, the job sends a stranded one to review, or an admin's cancelling
 * refunds it; a dispute ends released (all or the rest) or refunded; a review ends held again when the
 * doctor ends the consultation, or refunded when an admin cancels it; the provider may take the money
 * back (charged back) from any state but refunded. Released, refunded and charged back are final but for
 * that one.
 */
export const ESCROW_MOVES: StatusMoves<EscrowStatus> = {
  held: ["disputed", "in_review", "released", "refunded", "charged_back"],
  disputed: ["released", "refunded", "charged_back"],
  in_review: ["held", "refunded", "charged_back"],
  released: ["charged_back"],
  refunded: [],
  charged_back: [],
};

/** Why an escrow waits for an admin rather than being released on its own. */
export const ESCROW_REVIEW_REASONS = ["doctor_gone"] as const;

const ESCROW_RELEASE_AFTER_MS = ESCROW_RELEASE_HOURS * 60 * 60_000;
export const DISPUTE_WINDOW_MS = DISPUTE_WINDOW_HOURS * 60 * 60_000;

export interface EscrowFacts {
  status: EscrowStatus;
  consultationStatus: ConsultationStatus;
  /** When the doctor ended the consultation, if they have. */
  completedAt: Date | null;
}

/** When the hold is released by itself, if nothing stops it: 72 hours after the end; null before the end. */
export function releaseDueAt(completedAt: Date | null): Date | null {
  return completedAt ? new Date(completedAt.getTime() + ESCROW_RELEASE_AFTER_MS) : null;
}

export type ReleaseRefusal = "not_held" | "not_ended" | "not_due";

/**
 * Whether the hold may be released now: only a hold still `held` (not disputed, in review, released or
 * refunded), of a consultation its doctor ended, and either confirmed by the patient or past its due time.
 */
export function releaseRefusal(facts: EscrowFacts, by: "patient" | "schedule", now: Date): ReleaseRefusal | null {
  if (facts.status !== "held") return "not_held";
  if (facts.consultationStatus !== "completed" || !facts.completedAt) return "not_ended";
  if (by === "schedule" && now < releaseDueAt(facts.completedAt)!) return "not_due";
  return null;
}

/**
 * The same rule as a condition for a statement over a hold's and its consultation's columns, true
 * exactly where `releaseRefusal` answers null, so a release checks it where it writes (a test holds the
 * two to agreement).
 */
export function releaseAllowedSql(
  columns: { status: SQLWrapper; consultationStatus: SQLWrapper; completedAt: SQLWrapper },
  by: "patient" | "schedule",
  now: Date,
): SQL {
  const held: EscrowStatus = "held";
  const ended: ConsultationStatus = "completed";
  const due = by === "schedule" ? sql` AND ${columns.completedAt} <= ${now.getTime() - ESCROW_RELEASE_AFTER_MS}` : sql``;
  return sql`(${columns.status} = ${held} AND ${columns.consultationStatus} = ${ended} AND ${columns.completedAt} IS NOT NULL${due})`;
}
