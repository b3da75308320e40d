// One payment-provider interface, two implementations chosen by configuration (docs/decisions/0017):
// Chapa in production, and outside production the local sandbox checkout. Both answer `verify` with
// what the provider itself recorded, and both sign their webhooks the way Chapa does, so the webhook
// route and the confirmation run the same code whichever takes the money.
import type { AppConfig } from "~/server/env.server";

import { chapaProvider } from "./chapa.server";
import { sandboxProvider } from "./sandbox.server";

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

export function paymentProvider(config: AppConfig, env: Env, origin: string): PaymentProvider {
  return config.paymentProvider === "sandbox" ? sandboxProvider(config, env, origin) : chapaProvider(config);
}
