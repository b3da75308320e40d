// The sandbox's webhooks: posted to our webhook route and signed exactly as Chapa signs them, so the
// route runs the same code whichever provider took the money.
import { birrDecimal } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import { sandboxChargeOf, type SandboxTransaction } from "./sandbox-store.server";
import { signWebhookBody } from "./webhook-signature.server";

export function sandboxWebhookSecret(config: AppConfig) {
  return `payment-sandbox:${config.SESSION_SECRET}`;
}

/** Where the sandbox posts refund and payout webhooks (a charge's goes to its checkout's callback URL). */
export const sandboxWebhookUrl = (origin: string) => `${origin}/payments/webhook`;

/** Posts `payload` to `url` as Chapa would. Like Chapa, a webhook that cannot be delivered stops nothing: it is logged. */
export async function postSandboxWebhook(config: AppConfig, url: string, payload: Record<string, unknown>) {
  const body = JSON.stringify(payload);
  const secret = sandboxWebhookSecret(config);
  const signature = await signWebhookBody(secret, body);
  // Chapa's static header too (the secret signed with itself), which the webhook route must ignore.
  const staticSignature = await signWebhookBody(secret, secret);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-chapa-signature": signature, "chapa-signature": staticSignature },
      body,
    });
    if (!response.ok) console.error(JSON.stringify({ event: "sandbox_webhook_refused", webhook: payload.event, status: response.status }));
  } catch (error) {
    console.error(JSON.stringify({ event: "sandbox_webhook_failed", webhook: payload.event, error: String(error) }));
  }
}

/** A transaction's webhook in Chapa's format: `charge.success` once paid, `charge.refunded` when given back. */
export function chargeWebhookPayload(
  transaction: SandboxTransaction,
  { event, status, amountSantim, meta }: { event: string; status: string; amountSantim: number; meta: Record<string, string> | null },
) {
  const now = new Date().toISOString();
  return {
    event,
    first_name: transaction.firstName,
    last_name: transaction.lastName,
    email: transaction.email,
    mobile: null,
    currency: "ETB",
    amount: birrDecimal(amountSantim),
    charge: birrDecimal(sandboxChargeOf(transaction.amountSantim)),
    status,
    failure_reason: null,
    mode: "test",
    reference: transaction.reference,
    created_at: new Date(transaction.createdAt).toISOString(),
    updated_at: now,
    type: "API",
    tx_ref: transaction.txRef,
    payment_method: "sandbox",
    customization: { title: "Qoda consult", description: null, logo: null },
    meta,
  };
}
