// What each side says of a reconciliation difference (docs/decisions/0045), beside its amounts: kept as
// JSON in the difference's `ours` and `theirs` columns and worded only where it is shown, in the
// reader's language. Server code reads and writes it; the page imports only its type.
import { z } from "zod/mini";

import { ESCROW_STATUSES } from "./escrow";
import { PAYMENT_STATUSES } from "./payment-attempts";
import { PAYOUT_STATUSES } from "./payouts";

/** What one side says of a difference, beside its amount (the difference's own column). */
const DifferenceDetailSchema = z.discriminatedUnion("says", [
  // Our books: no movement of ours has the reference; ours, in its status (a payout perhaps taken by
  // the provider) or with its amount; refunded in full; a paid payment's escrow, or none; the balance.
  z.object({ says: z.enum(["no_payment", "no_payout", "payment_amount", "payout_amount", "refunded_all"]) }),
  z.object({ says: z.literal("payment_status"), status: z.enum(PAYMENT_STATUSES) }),
  z.object({ says: z.literal("payout_status"), status: z.enum(PAYOUT_STATUSES), taken: z.boolean() }),
  z.object({ says: z.literal("escrow_status"), status: z.enum(ESCROW_STATUSES) }),
  z.object({ says: z.literal("no_escrow"), status: z.enum(PAYMENT_STATUSES) }),
  z.object({ says: z.literal("books_balance"), inTransitSantim: z.number() }),
  // The provider's: its own status word, no such movement in its lists, or its balance.
  z.object({ says: z.literal("provider_status"), status: z.string() }),
  z.object({ says: z.enum(["no_transaction", "no_transfer"]) }),
  z.object({ says: z.literal("provider_balance"), availableSantim: z.number() }),
]);
export type DifferenceDetail = z.infer<typeof DifferenceDetailSchema>;

/** The longest status word of the provider's a detail keeps (it is the provider's to choose). */
const MAX_PROVIDER_STATUS_CHARS = 100;

/** A detail as its column keeps it. */
export function storedDifferenceDetail(detail: DifferenceDetail): string {
  return JSON.stringify(
    detail.says === "provider_status" ? { ...detail, status: detail.status.slice(0, MAX_PROVIDER_STATUS_CHARS) } : detail,
  );
}

/** A column read back as its detail; a row written before details were kept holds an English line, read as `english`. */
export function readDifferenceDetail(stored: string): DifferenceDetail | { says: "english"; line: string } {
  try {
    const parsed = DifferenceDetailSchema.safeParse(JSON.parse(stored));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: an English line.
  }
  return { says: "english", line: stored };
}
