// What every payment provider offers (docs/decisions/0017): start a checkout, read a transaction back
// from the provider itself, and the secret its webhooks are signed with; give a payment back (refund);
// send money to a bank account or wallet (transfer) and list where it can go; and how a status word reads.
// Every amount is in santim. The provider in use is chosen in provider.server.ts.
export interface Checkout {
  txRef: string;
  amountSantim: number;
  email: string;
  firstName: string;
  lastName: string;
  /** Where the provider posts its webhook. */
  callbackUrl: string;
  /** Where the provider sends the browser back. */
  returnUrl: string;
}

export type InitializeOutcome =
  | { ok: true; checkoutUrl: string }
  /** The provider already knows this tx_ref: its stored checkout URL is still the one to use. */
  | { ok: false; kind: "reference_used" }
  | { ok: false; kind: "failed"; message: string };

/**
 * A transaction's state at the provider: paid, failed, still waiting, or paid and then given back
 * (refunded by request, reversed by the bank); `unknown` is any status we do not know, never guessed.
 */
export type ProviderStatus = "success" | "failed" | "pending" | "refunded" | "reversed" | "unknown";

const KNOWN_STATUSES = ["success", "failed", "pending", "refunded", "reversed"] as const;

/** A provider's status word as we read it: one we know, or `unknown` (never taken for another). */
export const providerStatusOf = (word: string): ProviderStatus =>
  KNOWN_STATUSES.find((known) => known === word.trim().toLowerCase()) ?? "unknown";

/** What the provider says happened to a transaction, read back from the provider itself. */
export interface VerifiedTransaction {
  txRef: string;
  status: ProviderStatus;
  /** The status word exactly as the provider wrote it (for an admin, when it is not one we know). */
  providerStatus: string;
  amountSantim: number;
  /** What the provider kept of it as its own charge (its fee), 0 when it says none. */
  chargeSantim: number;
  currency: string;
  /** The provider's own reference, kept with the payment. */
  reference: string | null;
}

/** Our references (tx_ref, a refund's, a transfer's) and the provider's are short; a longer one is not one. */
export const MAX_REFERENCE_CHARS = 100;

/**
 * The provider's answer to a request that moves money (a refund or a transfer):
 * - `accepted`: it took the request; the money moves later, as its webhook or a verify will say;
 * - `reference_used`: it already has a request under this reference (an earlier try whose answer was
 *   lost was taken): nothing new was asked, and only a verify says what became of the first;
 * - `refused`: a definite no to this request; whether anything is pending under the reference is for a
 *   verify to say;
 * - `unreachable`: no answer we can read (timeout, 5xx, a broken body): we do not know whether it took
 *   the request, so verify before asking again under the same reference.
 */
type MoneyRequestOutcome =
  /** `amountSantim`: what the provider's answer says it moved, when it says (Chapa's refund answer does). */
  | { kind: "accepted"; providerReference: string | null; amountSantim?: number | null }
  | { kind: "reference_used" }
  | { kind: "refused"; message: string }
  | { kind: "unreachable"; message: string };

export type RefundOutcome = MoneyRequestOutcome;
type TransferOutcome = MoneyRequestOutcome;

interface RefundRequest {
  txRef: string;
  /** Our own unique reference for this refund: the provider refuses a second refund under it. */
  reference: string;
  /** At most what is left of the payment; less than the whole is a partial refund. */
  amountSantim: number;
  reason: string;
}

/**
 * What the provider now says of one refund. Chapa has no refund verify: it is read from the payment's
 * transaction, so `refunded` (given back), `not_refunded` (the payment still reads paid: the refund was
 * not taken, or is still being made) or `unknown` (a word we do not know, never guessed).
 */
export interface VerifiedRefund {
  status: "refunded" | "not_refunded" | "unknown";
  providerStatus: string;
  /** What was given back, when the provider says. */
  amountSantim: number | null;
}

/** A bank or mobile-money wallet the provider can send money to. */
export interface Bank {
  /** The provider's id for it, given back as the transfer's bank code. */
  code: string;
  name: string;
  isMobileMoney: boolean;
  /** How many characters its account numbers have, when the provider says. */
  accountNumberLength: number | null;
  currency: string;
}

interface TransferRequest {
  /** Our own unique reference for this transfer: the provider refuses a second transfer under it. */
  reference: string;
  amountSantim: number;
  bankCode: string;
  accountName: string;
  accountNumber: string;
}

/**
 * What the provider says of one transfer: `not_found` when it says plainly that it has none under the
 * reference (nothing was taken); `unknown` is a word we do not know (`queued`, `processing`, …), never guessed.
 */
export interface VerifiedTransfer {
  status: "success" | "failed" | "pending" | "unknown" | "not_found";
  providerStatus: string;
  amountSantim: number | null;
  /** The provider's charge on the transfer, when it says. */
  feeSantim: number | null;
  failureReason: string | null;
}

/** What the provider holds for us: available now, and in all (with what it has not yet settled). */
export interface ProviderBalance {
  availableSantim: number;
  ledgerSantim: number;
}

/** One of the provider's transactions as its list gives it (our tx_ref only when the list carries it). */
export interface ListedTransaction {
  txRef: string | null;
  providerReference: string;
  status: ProviderStatus;
  providerStatus: string;
  amountSantim: number;
  chargeSantim: number;
  createdAt: Date | null;
}

/** One of the provider's transfers as its list gives it, under our reference. */
export interface ListedTransfer {
  reference: string;
  status: VerifiedTransfer["status"];
  providerStatus: string;
  amountSantim: number;
  feeSantim: number | null;
  createdAt: Date | null;
}

export interface PaymentProvider {
  name: "chapa" | "sandbox";
  initialize(checkout: Checkout): Promise<InitializeOutcome>;
  /** The transaction as the provider recorded it, or null when it knows no such tx_ref (or cannot be reached). */
  verify(txRef: string): Promise<VerifiedTransaction | null>;
  /** The secret the provider signs webhooks with. */
  webhookSecret: string;
  /**
   * Asks for (part of) a payment to be given back. Record the refund under its reference before asking:
   * the provider's webhook may arrive before this answer does.
   */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** What the provider says of that refund now, or null when it cannot be asked (or knows no such refund). */
  verifyRefund(refund: { txRef: string; reference: string }): Promise<VerifiedRefund | null>;
  /** The active banks and wallets a transfer can go to, or null when the provider cannot be asked. */
  banks(): Promise<Bank[] | null>;
  /** Asks for money to be sent to an account. Record the transfer under its reference before asking. */
  transfer(request: TransferRequest): Promise<TransferOutcome>;
  /** What the provider says of that transfer now, or null when it cannot be asked. */
  verifyTransfer(reference: string): Promise<VerifiedTransfer | null>;
  /** The provider's balance in birr, or null when it cannot be asked. */
  balance(): Promise<ProviderBalance | null>;
  /** Its transactions created since `since` (newest first, pages followed), or null when it cannot be asked. */
  transactions(since: Date): Promise<ListedTransaction[] | null>;
  /** Its transfers created since `since`, or null when it cannot be asked. */
  transfers(since: Date): Promise<ListedTransfer[] | null>;
}

/** Refunds and transfers are whole, positive amounts of santim; anything else is a bug in the caller. */
export function assertPositiveSantim(amountSantim: number) {
  if (!Number.isSafeInteger(amountSantim) || amountSantim <= 0) throw new RangeError(`not a positive amount in santim: ${amountSantim}`);
}
