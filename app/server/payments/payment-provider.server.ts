// What every payment provider offers (docs/decisions/0017): start a checkout, read a transaction back
// from the provider itself, and the secret its webhooks are signed with. Types only; the provider
// in use is chosen in provider.server.ts.
export interface Checkout {
  txRef: string;
  amountEtb: number;
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

/** What the provider says happened to a transaction, read back from the provider itself. */
export interface VerifiedTransaction {
  txRef: string;
  status: "success" | "failed" | "pending";
  amountEtb: number;
  currency: string;
  /** The provider's own reference, kept with the payment. */
  reference: string | null;
}

export interface PaymentProvider {
  name: "chapa" | "sandbox";
  initialize(checkout: Checkout): Promise<InitializeOutcome>;
  /** The transaction as the provider recorded it, or null when it knows no such tx_ref (or cannot be reached). */
  verify(txRef: string): Promise<VerifiedTransaction | null>;
  /** The secret the provider signs webhooks with. */
  webhookSecret: string;
}
