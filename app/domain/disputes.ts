// A patient's dispute of a consultation's charge (docs/decisions/0028): opened within 72 hours of the
// end, it freezes the escrow; the doctor may answer once; an admin resolves it by releasing the money to
// the doctor, refunding it all, or refunding part, with a note both sides read.
import { z } from "zod/mini";

import { santimFromBirr } from "./money.ts";
import type { StatusMoves } from "./status-moves";
import { cleanText } from "./text-hygiene.ts";

export const DISPUTE_REASONS = ["not_helpful", "doctor_unresponsive", "wrong_advice", "technical_problem", "other"] as const;
export const DISPUTE_STATUSES = ["open", "resolved"] as const;

/** A dispute's allowed moves (docs/decisions/0046): open until an admin resolves it, once. */
export const DISPUTE_MOVES: StatusMoves<(typeof DISPUTE_STATUSES)[number]> = { open: ["resolved"], resolved: [] };
export const DISPUTE_RESOLUTIONS = ["release", "refund_full", "refund_part"] as const;
export type DisputeResolution = (typeof DISPUTE_RESOLUTIONS)[number];

/** The patient's words, the doctor's answer and the admin's note: room for a few paragraphs. */
export const MAX_DISPUTE_TEXT_CHARS = 2_000;

const words = (required: "disputes.errors.wordsRequired" | "disputes.errors.answerRequired" | "disputes.errors.noteRequired") =>
  z.pipe(
    z.optional(z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_DISPUTE_TEXT_CHARS, { error: "forms.errors.tooLong" }))),
    z.string({ error: required }).check(z.minLength(1, { error: required })),
  );

export const DISPUTE_INTENTS = { open: "open-dispute", answer: "answer-dispute", resolve: "resolve-dispute" } as const;

/** The patient's dispute: why, from the list, and their words. */
export const OpenDisputeSchema = z.object({
  intent: z.literal(DISPUTE_INTENTS.open),
  reason: z.enum(DISPUTE_REASONS, { error: "disputes.errors.reasonRequired" }),
  words: words("disputes.errors.wordsRequired"),
});

/** The doctor's one answer. */
export const AnswerDisputeSchema = z.object({
  intent: z.literal(DISPUTE_INTENTS.answer),
  answer: words("disputes.errors.answerRequired"),
});

/**
 * An admin's decision: release, refund all, or refund part (an amount in birr above 0; the server holds
 * it to what the escrow holds, which the form cannot know), with a note.
 */
export const ResolveDisputeSchema = z
  .object({
    intent: z.literal(DISPUTE_INTENTS.resolve),
    resolution: z.enum(DISPUTE_RESOLUTIONS, { error: "disputes.errors.resolutionRequired" }),
    refundBirr: z.optional(z.string()),
    note: words("disputes.errors.noteRequired"),
  })
  .check(
    z.refine(
      (form) => {
        if (form.resolution !== "refund_part") return true;
        const santim = santimFromBirr(form.refundBirr ?? "");
        return santim !== null && santim > 0;
      },
      {
        error: "disputes.errors.partAmount",
        path: ["refundBirr"],
        when: (payload) => (payload.value as { resolution?: unknown }).resolution === "refund_part",
      },
    ),
  );

/**
 * What an admin's decision moves, in santim, of the `heldSantim` the escrow holds: refunded to the
 * patient and released to the doctor. Null for a part that is not strictly between 0 and what is held
 * (refused with a message, never clamped: a part of it all is a full refund).
 */
export function resolutionAmounts(resolution: DisputeResolution, heldSantim: number, refundPartSantim: number | null) {
  if (resolution === "release") return { refundSantim: 0, releaseSantim: heldSantim };
  if (resolution === "refund_full") return { refundSantim: heldSantim, releaseSantim: 0 };
  if (refundPartSantim === null || refundPartSantim <= 0 || refundPartSantim >= heldSantim) return null;
  return { refundSantim: refundPartSantim, releaseSantim: heldSantim - refundPartSantim };
}
