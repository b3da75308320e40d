// The local sandbox checkout (development and tests; off in production). It keeps each transaction as
// Chapa would, in R2 under `payment-sandbox/`, shows a checkout page with Pay and Fail
// (routes/dev.payments.checkout.$txRef.tsx), posts a webhook signed exactly as Chapa signs them to the
// callback URL (the same webhook route and confirmation as production), and sends the browser back to
// the return URL.
import { birrDecimal } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import {
  type Checkout,
  type InitializeOutcome,
  type PaymentProvider,
  providerStatusOf,
  type VerifiedTransaction,
} from "./payment-provider.server";
import { signWebhookBody } from "./webhook-signature.server";

const KEY_PREFIX = "payment-sandbox/";

export interface SandboxTransaction extends Checkout {
  /** As Chapa's verify reports it; tests may set any other word, as Chapa might. */
  status: string;
  /** ETB unless a test makes the provider disagree. */
  currency?: string;
  reference: string;
  createdAt: number;
}

const keyOf = (txRef: string) => `${KEY_PREFIX}${txRef}`;

/** The sandbox keeps a charge as Chapa does (3.5 % of the amount), so the books carry a provider fee locally too. */
const sandboxChargeOf = (amountSantim: number) => Math.round((amountSantim * 35) / 1000);

export async function sandboxTransaction(env: Env, txRef: string): Promise<SandboxTransaction | null> {
  const object = await env.FILES.get(keyOf(txRef));
  return object ? ((await object.json()) as SandboxTransaction) : null;
}

function webhookSecretOf(config: AppConfig) {
  return `payment-sandbox:${config.SESSION_SECRET}`;
}

export function sandboxProvider(config: AppConfig, env: Env, origin: string): PaymentProvider {
  return {
    name: "sandbox",
    webhookSecret: webhookSecretOf(config),
    async initialize(checkout: Checkout): Promise<InitializeOutcome> {
      if (await env.FILES.head(keyOf(checkout.txRef))) return { ok: false, kind: "reference_used" };
      const transaction: SandboxTransaction = {
        ...checkout,
        status: "pending",
        reference: `SBX${crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`,
        createdAt: Date.now(),
      };
      await env.FILES.put(keyOf(checkout.txRef), JSON.stringify(transaction), { httpMetadata: { contentType: "application/json" } });
      return { ok: true, checkoutUrl: `${origin}/dev/payments/checkout/${encodeURIComponent(checkout.txRef)}` };
    },
    async verify(txRef: string): Promise<VerifiedTransaction | null> {
      const transaction = await sandboxTransaction(env, txRef);
      if (!transaction) return null;
      return {
        txRef,
        status: providerStatusOf(transaction.status),
        providerStatus: transaction.status,
        amountSantim: transaction.amountSantim,
        chargeSantim: sandboxChargeOf(transaction.amountSantim),
        currency: transaction.currency ?? "ETB",
        reference: transaction.reference,
      };
    },
  };
}

/**
 * The patient's choice on the sandbox checkout page: the transaction is settled, and a successful one
 * is announced to the callback URL in Chapa's webhook format and signature. Returns where the browser goes.
 */
export async function settleSandboxTransaction(config: AppConfig, env: Env, txRef: string, outcome: "success" | "failed") {
  const transaction = await sandboxTransaction(env, txRef);
  if (!transaction || transaction.status !== "pending") return transaction?.returnUrl ?? null;
  const settled: SandboxTransaction = { ...transaction, status: outcome };
  await env.FILES.put(keyOf(txRef), JSON.stringify(settled), { httpMetadata: { contentType: "application/json" } });
  if (outcome === "success") await postWebhook(config, settled);
  return settled.returnUrl;
}

async function postWebhook(config: AppConfig, transaction: SandboxTransaction) {
  const now = new Date().toISOString();
  const body = JSON.stringify({
    event: "charge.success",
    first_name: transaction.firstName,
    last_name: transaction.lastName,
    email: transaction.email,
    mobile: null,
    currency: "ETB",
    amount: birrDecimal(transaction.amountSantim),
    charge: birrDecimal(sandboxChargeOf(transaction.amountSantim)),
    status: "success",
    failure_reason: null,
    mode: "test",
    reference: transaction.reference,
    created_at: now,
    updated_at: now,
    type: "API",
    tx_ref: transaction.txRef,
    payment_method: "sandbox",
    customization: { title: "Qoda consult", description: null, logo: null },
    meta: null,
  });
  const secret = webhookSecretOf(config);
  const signature = await signWebhookBody(secret, body);
  // Chapa's static header too (the secret signed with itself), which the webhook route must ignore.
  const staticSignature = await signWebhookBody(secret, secret);
  try {
    const response = await fetch(transaction.callbackUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-chapa-signature": signature, "chapa-signature": staticSignature },
      body,
    });
    if (!response.ok) console.error(JSON.stringify({ event: "sandbox_webhook_refused", status: response.status }));
  } catch (error) {
    // Like Chapa, a webhook that cannot be delivered does not stop the payment: the return page verifies too.
    console.error(JSON.stringify({ event: "sandbox_webhook_failed", error: String(error) }));
  }
}
