// What every payment provider offers (docs/decisions/0017): start a checkout, read a transaction back
// from the provider itself, and the secret its webhooks are signed with; and how a status word reads.
// The provider in use is chosen in provider.server.ts.
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

export interface PaymentProvider {
  name: "chapa" | "sandbox";
  initialize(checkout: Checkout): Promise<InitializeOutcome>;
  /** The transaction as the provider recorded it, or null when it knows no such tx_ref (or cannot be reached). */
  verify(txRef: string): Promise<VerifiedTransaction | null>;
  /** The secret the provider signs webhooks with. */
  webhookSecret: string;
}
