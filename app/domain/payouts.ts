// Payouts to doctors (docs/decisions/0028): a doctor's available balance above a minimum moves to their
// bank or wallet by a provider transfer with our own unique reference, settled by the provider's webhook
// or a later check; a failed one returns the money to what the doctor is owed.
import { z } from "zod/mini";

import { SANTIM_PER_BIRR, santimFromSum } from "./money.ts";
import { cleanLine } from "./text-hygiene.ts";

export const PAYOUT_STATUSES = ["pending", "succeeded", "failed"] as const;

/** Where a payout was made: by a provider transfer, or by an admin outside it (recorded with a reason). */
export const PAYOUT_CHANNELS = ["provider", "outside"] as const;

/** A payout run moves a doctor's available balance only from this much up (transfers cost a fee). */
export const MIN_PAYOUT_SANTIM = 100 * SANTIM_PER_BIRR;

/**
 * Doctors one payout run pays. Each costs about a dozen D1 queries and a transfer, and a Worker
 * invocation may make 1,000 queries, with the job's other work beside it: the rest go with the next run
 * (the job's, 15 minutes later, or the admin's next click).
 */
export const PAYOUTS_PER_RUN = 20;

/**
 * How long after a change of payout details (not their first setting) payouts to the new account wait:
 * time for the doctor, emailed at once, to stop a change they did not make.
 */
export const PAYOUT_ACCOUNT_HOLD_MS = 48 * 60 * 60_000;

/**
 * When payouts to an account may start again after a change of it, or null when none is held: a row
 * changed after it was made (`updatedAt` later than `createdAt`) is held until 48 hours after the change.
 */
export function payoutHoldEndsAt(account: { createdAt: Date; updatedAt: Date }, now: Date): Date | null {
  if (account.updatedAt.getTime() <= account.createdAt.getTime()) return null;
  const endsAt = new Date(account.updatedAt.getTime() + PAYOUT_ACCOUNT_HOLD_MS);
  return endsAt.getTime() > now.getTime() ? endsAt : null;
}

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

/** Addis Ababa's offset from UTC (no daylight saving): 3 hours. */
const ADDIS_OFFSET_MS = 3 * 60 * 60_000;
/** Chapa sends transfers Monday to Saturday, 08:30 to 16:30 in Addis Ababa (its transfer hours). */
const TRANSFER_DAYS = new Set([1, 2, 3, 4, 5, 6]);
const TRANSFER_OPENS_MINUTE = 8 * 60 + 30;
const TRANSFER_CLOSES_MINUTE = 16 * 60 + 30;

/** Whether Chapa takes transfers at `now`: the scheduled run sends only then, so a transfer is not refused for the hour. */
export function insideTransferHours(now: Date): boolean {
  const addis = new Date(now.getTime() + ADDIS_OFFSET_MS);
  const minute = addis.getUTCHours() * 60 + addis.getUTCMinutes();
  return TRANSFER_DAYS.has(addis.getUTCDay()) && minute >= TRANSFER_OPENS_MINUTE && minute < TRANSFER_CLOSES_MINUTE;
}

/**
 * A payout's allowed moves (docs/decisions/0045), as the consultation's status has its own: pending until
 * a verify says it succeeded or failed, or an admin records it made outside the provider (succeeded) or
 * fails it once the provider confirms nothing went out; a finished payout never moves again.
 */
export const PAYOUT_MOVES: Record<(typeof PAYOUT_STATUSES)[number], ReadonlyArray<(typeof PAYOUT_STATUSES)[number]>> = {
  pending: ["succeeded", "failed"],
  succeeded: [],
  failed: [],
};

/** Times a payout is asked of the provider (sent, or checked after it was taken) before an admin is asked to decide. */
export const MAX_PAYOUT_ASKS = 8;

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
    ? { kind: "amount_mismatch", sentSantim: santimFromSum(mismatch[1]), expectedSantim: santimFromSum(mismatch[2]) }
    : { kind: "provider", words: reason };
}
