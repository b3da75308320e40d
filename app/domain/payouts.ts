// Payouts to doctors (docs/decisions/0028): a doctor's available balance above a minimum moves to their
// bank or wallet by a provider transfer with our own unique reference, settled by the provider's webhook
// or a later check; a failed one returns the money to what the doctor is owed.
import { z } from "zod/mini";

import { SANTIM_PER_BIRR } from "./money.ts";
import { cleanLine } from "./text-hygiene";

export const PAYOUT_STATUSES = ["pending", "succeeded", "failed"] as const;

/** A payout run moves a doctor's available balance only from this much up (transfers cost a fee). */
export const MIN_PAYOUT_SANTIM = 100 * SANTIM_PER_BIRR;

/**
 * Doctors one payout run pays. Each costs about a dozen D1 queries and a transfer, and a Worker
 * invocation may make 1,000 queries, with the job's other work beside it: the rest go with the next run
 * (the job's, 15 minutes later, or the admin's next click).
 */
export const PAYOUTS_PER_RUN = 20;

const MAX_ACCOUNT_NAME_CHARS = 100;

/** Our own reference for a transfer: unique, within Chapa's characters. */
export const newPayoutReference = () => `qoda-po-${crypto.randomUUID()}`;

export const PAYOUT_ACCOUNT_INTENT = "payout-account";

/**
 * A doctor's payout details: a bank or wallet from the provider's list (checked on the server against
 * it), the name on the account and its number (digits only; the bank's length is checked on the server).
 */
export const PayoutAccountSchema = z.object({
  intent: z.literal(PAYOUT_ACCOUNT_INTENT),
  bankCode: z
    .string({ error: "payouts.errors.bankRequired" })
    .check(z.minLength(1, { error: "payouts.errors.bankRequired" }), z.maxLength(100)),
  accountName: z
    .string({ error: "payouts.errors.nameRequired" })
    .check(
      z.overwrite(cleanLine),
      z.trim(),
      z.minLength(2, { error: "payouts.errors.nameRequired" }),
      z.maxLength(MAX_ACCOUNT_NAME_CHARS, { error: "forms.errors.tooLong" }),
    ),
  accountNumber: z.string({ error: "payouts.errors.numberRequired" }).check(
    z.overwrite((value) => value.replace(/[\s-]/g, "")),
    z.regex(/^\d{6,20}$/, { error: "payouts.errors.numberFormat" }),
  ),
});

/**
 * Why a payout has not gone through, as stored: the provider's own words, or our code for an amount that
 * differs from ours (worded where it is shown, in the reader's language: review 3, S26).
 */
const AMOUNT_MISMATCH = /^amount_mismatch:(\d+):(\d+)$/;

export const amountMismatchReason = (sentSantim: number, expectedSantim: number) => `amount_mismatch:${sentSantim}:${expectedSantim}`;

export type PayoutReason = { kind: "amount_mismatch"; sentSantim: number; expectedSantim: number } | { kind: "provider"; words: string };

export function readPayoutReason(reason: string): PayoutReason {
  const mismatch = AMOUNT_MISMATCH.exec(reason);
  return mismatch
    ? { kind: "amount_mismatch", sentSantim: Number(mismatch[1]), expectedSantim: Number(mismatch[2]) }
    : { kind: "provider", words: reason };
}
