// An admin's decisions on money the provider has not settled (docs/decisions/0045): a refund or payout
// asked of the provider again, recorded as made outside it (with the admin's reason), or failed once the
// provider confirms nothing went out; and a difference with the provider's books resolved with a note.
import { z } from "zod/mini";

import { MAX_RESOLUTION_NOTE_CHARS } from "./reconciliation";
import { cleanText } from "./text-hygiene";

const MONEY_DECISIONS = ["ask_again", "settled_outside", "fail"] as const;
export const MONEY_DECISION_INTENT = "decide-money";
export const RESOLVE_DIFFERENCE_INTENT = "resolve-difference";
export const RECONCILE_INTENT = "reconcile";

const note = z.optional(
  z.string().check(z.overwrite(cleanText), z.trim(), z.maxLength(MAX_RESOLUTION_NOTE_CHARS, { error: "forms.errors.tooLong" })),
);

/** One decision on one refund or payout; a record made outside the provider needs the admin's reason. */
export const MoneyDecisionSchema = z
  .object({
    intent: z.literal(MONEY_DECISION_INTENT),
    subject: z.enum(["refund", "payout"]),
    id: z.uuid(),
    decision: z.enum(MONEY_DECISIONS),
    note,
  })
  .check(
    z.refine((form) => form.decision !== "settled_outside" || (form.note ?? "").length > 0, {
      error: "admin.finance.errors.noteRequired",
      path: ["note"],
    }),
  );

/** A difference with the provider's books, resolved with what the admin found and did. */
export const ResolveDifferenceSchema = z.object({
  intent: z.literal(RESOLVE_DIFFERENCE_INTENT),
  differenceId: z.uuid(),
  note: z.pipe(
    note,
    z
      .string({ error: "admin.reconciliation.errors.noteRequired" })
      .check(z.minLength(1, { error: "admin.reconciliation.errors.noteRequired" })),
  ),
});
