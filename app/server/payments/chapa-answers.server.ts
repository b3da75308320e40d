// Chapa's answers as zod schemas, read for what we use and nothing more. Where each format comes from is
// written at the top of chapa.server.ts. An answer not in its format fails its schema (the adapter then
// has no answer); a status word we do not know reads `unknown`, never as another.
import { z } from "zod";

import { santimFromBirr } from "~/domain/money";

import {
  type Bank,
  type ListedTransaction,
  type ListedTransfer,
  MAX_REFERENCE_CHARS,
  type ProviderBalance,
  type ProviderStatus,
  providerStatusOf,
  type VerifiedRefund,
  type VerifiedTransfer,
} from "./payment-provider.server";

/** A failure reason is for an admin to read; beyond this it is cut. */
const MAX_REASON_CHARS = 500;

const Reference = () => z.string().min(1).max(MAX_REFERENCE_CHARS);

/** Chapa's message may be a sentence or an object of field errors; anything else says nothing. */
const ChapaMessage = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .optional()
  .catch(undefined)
  .transform((message) => (typeof message === "object" ? Object.values(message).flat().join(" ") : (message ?? "")));

/** Any answer, read only for its message (a refusal, or an answer we could not use). */
export const ChapaRefusal = z.object({ message: ChapaMessage }).catch({ message: "" });

/** A definite no in Chapa's format: `status: "failed"` and a message that says why. */
export const ChapaFailure = z.object({ status: z.literal("failed"), message: ChapaMessage.pipe(z.string().min(1)) });

/** An initialize answer that gives a checkout page to send the patient to (its address checked by the adapter). */
export const InitializeAnswer = z.object({
  status: z.literal("success"),
  data: z.object({ checkout_url: z.string() }),
});

/** A transaction verify answer; its status word is read by providerStatusOf. */
export const VerifyAnswer = z.object({
  status: z.literal("success"),
  data: z.object({
    tx_ref: z.string(),
    status: z.string().catch(""),
    amount: z.unknown().transform((amount) => santimFromBirr(amount) ?? Number.NaN),
    currency: z.string().catch(""),
    charge: z
      .unknown()
      .optional()
      .transform((charge) => santimFromBirr(charge ?? 0) ?? 0),
    reference: z.string().nullable().catch(null),
  }),
});

/** A refund or transfer Chapa took: `status: "success"`, with data of a shape it does not fix. */
export const AcceptedAnswer = z.object({ status: z.literal("success"), data: z.unknown().optional() });

/**
 * Chapa's own reference in an accepted answer, if it gives one: its `chapa_reference`, or data that is
 * a bare string other than our reference (its transfer answer echoes ours there).
 */
export function providerReferenceOf(data: unknown, ourReference: string): string | null {
  const candidate =
    typeof data === "string"
      ? data
      : typeof data === "object" && data !== null
        ? (data as { chapa_reference?: unknown }).chapa_reference
        : null;
  if (typeof candidate !== "string" || candidate === ourReference) return null;
  return candidate.length > 0 && candidate.length <= MAX_REFERENCE_CHARS ? candidate : null;
}

/** Chapa writes its flags as 1, 0 or null (its SDK types them as booleans): read both. */
const Flag = z.union([z.boolean(), z.number(), z.null()]).optional().catch(null);

const BankEntry = z.object({
  id: z.number().int().positive(),
  name: z.string().trim().min(1).max(200),
  acct_length: z.number().int().positive().nullable().optional().catch(null),
  is_mobilemoney: Flag,
  is_active: Flag,
  active: Flag,
  currency: z.string().trim().min(1).max(10),
});

/**
 * The banks answer as our list: only banks neither of Chapa's activity flags marks off. A bank entry we
 * cannot read is left out (nothing could be sent to it); an answer without a list is no answer.
 */
export const BanksAnswer = z.object({ data: z.array(z.unknown()) }).transform(({ data }): Bank[] =>
  data.flatMap((entry) => {
    const bank = BankEntry.safeParse(entry);
    if (!bank.success) return [];
    const { id, name, acct_length, is_mobilemoney, is_active, active, currency } = bank.data;
    if (is_active === 0 || is_active === false || active === 0 || active === false) return [];
    return [
      {
        code: String(id),
        name,
        isMobileMoney: is_mobilemoney === 1 || is_mobilemoney === true,
        accountNumberLength: acct_length ?? null,
        currency,
      },
    ];
  }),
);

/** A transfer verify answer: the transfer's status word, amount and (when Chapa gives one) why it failed. */
export const VerifyTransferAnswer = z.object({
  status: z.literal("success"),
  data: z.object({
    status: z.string().max(100).catch(""),
    amount: z
      .unknown()
      .optional()
      .transform((amount) => santimFromBirr(amount)),
    tx_ref: z.string().optional().catch(undefined),
    charge: z
      .unknown()
      .optional()
      .transform((charge) => (charge === undefined || charge === null ? null : santimFromBirr(charge))),
    failure_reason: z
      .string()
      .transform((reason) => reason.slice(0, MAX_REASON_CHARS))
      .nullable()
      .optional()
      .catch(null),
  }),
});

const TRANSFER_STATUSES: Record<string, VerifiedTransfer["status"]> = {
  success: "success",
  pending: "pending",
  failed: "failed",
  // Chapa's payout events name a transfer that did not go "failed/cancelled": cancelled is not sent either.
  cancelled: "failed",
};

/** A transfer's status word as we read it: one Chapa documents, or `unknown` (for an admin, never guessed). */
export const transferStatusOf = (word: string): VerifiedTransfer["status"] => TRANSFER_STATUSES[word.trim().toLowerCase()] ?? "unknown";

/**
 * A refund's state read from its transaction's status (Chapa has no refund verify): given back (refunded,
 * or reversed by the bank) is refunded; still paid is not refunded (not taken, or still being made: only
 * the refund's own answers and webhook tell which); anything else is unknown. A partial refund leaves the
 * payment reading paid, so only its signed webhook can say it was made.
 */
export function refundStatusOfTransaction(status: ProviderStatus): VerifiedRefund["status"] {
  if (status === "refunded" || status === "reversed") return "refunded";
  return status === "success" ? "not_refunded" : "unknown";
}

/** An amount in Chapa's decimal birr (a number or a string), as santim; a missing or broken one is null. */
const Birr = z
  .unknown()
  .optional()
  .transform((amount) => (amount === undefined || amount === null ? null : santimFromBirr(amount)));

const When = z
  .string()
  .optional()
  .catch(undefined)
  .transform((at) => {
    const parsed = at ? new Date(at) : null;
    return parsed && !Number.isNaN(parsed.getTime()) ? parsed : null;
  });

/** The balances answer (developer.chapa.co/transfer/balance): the ETB entry's available and ledger balances. */
export const BalancesAnswer = z
  .object({
    status: z.literal("success"),
    data: z.array(
      z
        .object({ currency: z.string(), available_balance: Birr, ledger_balance: Birr })
        .catch({ currency: "", available_balance: null, ledger_balance: null }),
    ),
  })
  .transform(({ data }): ProviderBalance | null => {
    const etb = data.find((entry) => entry.currency.toUpperCase() === "ETB");
    if (!etb || etb.available_balance === null || etb.ledger_balance === null) return null;
    return { availableSantim: etb.available_balance, ledgerSantim: etb.ledger_balance };
  });

const ListedTransactionEntry = z.object({
  status: z.string().max(100).catch(""),
  ref_id: Reference(),
  tx_ref: z.string().max(MAX_REFERENCE_CHARS).optional().catch(undefined),
  amount: Birr,
  charge: Birr,
  created_at: When,
});

/**
 * The transactions answer (developer.chapa.co/transactions/all-transactions; the Node SDK's
 * GetTransactionsResponse): `data.transactions` with Chapa's `ref_id`, our `tx_ref` where it is given,
 * and `data.pagination.next_page_url`. An entry we cannot read is left out, and counted by the caller.
 */
export const TransactionsAnswer = z
  .object({
    status: z.literal("success"),
    data: z.object({
      transactions: z.array(z.unknown()),
      pagination: z
        .object({ next_page_url: z.string().nullable().optional().catch(null) })
        .optional()
        .catch(undefined),
    }),
  })
  .transform(({ data }) => ({
    transactions: data.transactions.flatMap((entry): ListedTransaction[] => {
      const read = ListedTransactionEntry.safeParse(entry);
      if (!read.success || read.data.amount === null) return [];
      const { status, ref_id, tx_ref, amount, charge, created_at } = read.data;
      return [
        {
          txRef: tx_ref ?? null,
          providerReference: ref_id,
          status: providerStatusOf(status),
          providerStatus: status,
          amountSantim: amount,
          chargeSantim: charge ?? 0,
          createdAt: created_at,
        },
      ];
    }),
    nextPage: data.pagination?.next_page_url ?? null,
  }));

const ListedTransferEntry = z.object({
  status: z.string().max(100).catch(""),
  reference: Reference(),
  amount: Birr,
  charge: Birr,
  created_at: When,
});

/** The transfers answer (developer.chapa.co/docs/all-transfers; the SDK's GetTransfersResponse): `data`, and `meta.next_page_url`. */
export const TransfersAnswer = z
  .object({
    status: z.literal("success"),
    data: z.array(z.unknown()),
    meta: z
      .object({ next_page_url: z.string().nullable().optional().catch(null) })
      .optional()
      .catch(undefined),
  })
  .transform(({ data, meta }) => ({
    transfers: data.flatMap((entry): ListedTransfer[] => {
      const read = ListedTransferEntry.safeParse(entry);
      if (!read.success || read.data.amount === null) return [];
      const { status, reference, amount, charge, created_at } = read.data;
      return [
        {
          reference,
          status: transferStatusOf(status),
          providerStatus: status,
          amountSantim: amount,
          feeSantim: charge,
          createdAt: created_at,
        },
      ];
    }),
    nextPage: meta?.next_page_url ?? null,
  }));
