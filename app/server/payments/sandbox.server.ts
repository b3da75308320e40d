// The local sandbox (development and tests; off in production), a stand-in for Chapa. It keeps each
// transaction as Chapa would, in R2 under `payment-sandbox/` (sandbox-store.server.ts), shows a checkout
// page with Pay and Fail (routes/dev.payments.checkout.$txRef.tsx), posts a webhook signed exactly as
// Chapa signs them to the callback URL (the same webhook route and confirmation as production), and
// sends the browser back to the return URL. It also refunds (sandbox-refunds.server.ts) and sends
// transfers to a few real banks and wallets (sandbox-transfers.server.ts), as set by its switches
// (sandbox-switches.server.ts, /dev/payments).
import type { AppConfig } from "~/server/env.server";

import {
  type Checkout,
  type InitializeOutcome,
  type PaymentProvider,
  providerStatusOf,
  type VerifiedTransaction,
} from "./payment-provider.server";
import { requestSandboxRefund, verifySandboxRefund } from "./sandbox-refunds.server";
import {
  hasSandboxTransaction,
  sandboxChargeOf,
  sandboxReference,
  type SandboxTransaction,
  sandboxTransaction,
  saveSandboxTransaction,
} from "./sandbox-store.server";
import { requestSandboxTransfer, SANDBOX_BANKS, verifySandboxTransfer } from "./sandbox-transfers.server";
import { chargeWebhookPayload, postSandboxWebhook, sandboxWebhookSecret } from "./sandbox-webhook.server";

export function sandboxProvider(config: AppConfig, env: Env, origin: string): PaymentProvider {
  return {
    name: "sandbox",
    webhookSecret: sandboxWebhookSecret(config),
    async initialize(checkout: Checkout): Promise<InitializeOutcome> {
      if (await hasSandboxTransaction(env, checkout.txRef)) return { ok: false, kind: "reference_used" };
      await saveSandboxTransaction(env, { ...checkout, status: "pending", reference: sandboxReference(), createdAt: Date.now() });
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
    refund: (request) => requestSandboxRefund(config, env, origin, request),
    verifyRefund: (refund) => verifySandboxRefund(env, refund),
    banks: async () => [...SANDBOX_BANKS],
    transfer: (request) => requestSandboxTransfer(config, env, origin, request),
    verifyTransfer: (reference) => verifySandboxTransfer(env, reference),
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
  await saveSandboxTransaction(env, settled);
  if (outcome === "success") {
    const payload = chargeWebhookPayload(settled, {
      event: "charge.success",
      status: "success",
      amountSantim: settled.amountSantim,
      meta: null,
    });
    await postSandboxWebhook(config, settled.callbackUrl, payload);
  }
  return settled.returnUrl;
}
