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
