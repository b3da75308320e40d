// The sandbox's webhooks: posted to our webhook route and signed exactly as Chapa signs them, so the
// route runs the same code whichever provider took the money. Like Chapa's, they may come twice or late
// (the webhooks switch): a late one is kept in R2 until it is sent from the sandbox's page or a test.
import { birrDecimal } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import {
  HELD_WEBHOOKS_PREFIX,
  readSandboxRecord,
  sandboxChargeOf,
  type SandboxTransaction,
  writeSandboxRecord,
} from "./sandbox-store.server";
import { sandboxSwitches } from "./sandbox-switches.server";
import { signWebhookBody } from "./webhook-signature.server";

export function sandboxWebhookSecret(config: AppConfig) {
  return `payment-sandbox:${config.SESSION_SECRET}`;
}

/** Where the sandbox posts refund and payout webhooks (a charge's goes to its checkout's callback URL). */
export const sandboxWebhookUrl = (origin: string) => `${origin}/payments/webhook`;

/** Posts `payload` to `url` now, signed as Chapa signs it. A webhook that cannot be delivered stops nothing: it is logged. */
async function postNow(config: AppConfig, url: string, payload: Record<string, unknown>) {
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

interface HeldWebhook {
  url: string;
  payload: Record<string, unknown>;
  createdAt: number;
}

/** Posts `payload` to `url` as Chapa would, as the webhooks switch says: on time, twice, or held back for later. */
export async function postSandboxWebhook(config: AppConfig, env: Env, url: string, payload: Record<string, unknown>) {
  const { webhooks } = await sandboxSwitches(env);
  if (webhooks === "late") {
    const held: HeldWebhook = { url, payload, createdAt: Date.now() };
    await writeSandboxRecord(env, `${HELD_WEBHOOKS_PREFIX}${Date.now()}-${crypto.randomUUID()}`, held);
    return;
  }
  await postNow(config, url, payload);
  if (webhooks === "twice") await postNow(config, url, payload);
}

/** Sends every webhook held back, oldest first; returns how many. */
export async function sendHeldSandboxWebhooks(config: AppConfig, env: Env): Promise<number> {
  const listed = await env.FILES.list({ prefix: HELD_WEBHOOKS_PREFIX });
  const keys = listed.objects.map((object) => object.key).sort();
  for (const key of keys) {
    const held = await readSandboxRecord<HeldWebhook>(env, key);
    await env.FILES.delete(key);
    if (held) await postNow(config, held.url, held.payload);
  }
  return keys.length;
}

export async function heldSandboxWebhookCount(env: Env): Promise<number> {
  return (await env.FILES.list({ prefix: HELD_WEBHOOKS_PREFIX })).objects.length;
}

/** A transaction's webhook in Chapa's format: `charge.success` once paid, `charge.refunded` / `charge.reversed` when given back. */
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
