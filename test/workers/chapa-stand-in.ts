// An in-process stand-in for Chapa's API, answering in its documented formats (developer.chapa.co):
// initialize gives a hosted checkout URL, a reused tx_ref is refused as Chapa words it, and verify reads a
// transaction back. Tests settle transactions and sign webhooks as Chapa would.
import { vi } from "vitest";

import { signWebhookBody } from "~/server/payments/webhook-signature.server";

export const CHAPA_API_URL = "https://api.chapa.test";
export const CHAPA_SECRET_KEY = "CHASECK_TEST-stand-in";
export const CHAPA_WEBHOOK_SECRET = "chapa-webhook-secret-for-tests";

interface StandInTransaction {
  tx_ref: string;
  amount: string;
  currency: string;
  email: string;
  first_name: string;
  last_name: string;
  /** Chapa's word for it: pending, success, failed, refunded, reversed, or one we do not know. */
  status: string;
  reference: string;
}

export function chapaStandIn() {
  const transactions = new Map<string, StandInTransaction>();
  const initializeBodies: Array<Record<string, unknown>> = [];
  const authorizations: string[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(CHAPA_API_URL)) return realFetch(input, init);
    authorizations.push(request.headers.get("Authorization") ?? "");
    const path = new URL(request.url).pathname;
    if (path === "/v1/transaction/initialize" && request.method === "POST") {
      const body = (await request.json()) as Record<string, unknown>;
      initializeBodies.push(body);
      const txRef = String(body.tx_ref);
      if (transactions.has(txRef))
        return json(400, { message: "Transaction reference has been used before", status: "failed", data: null });
      if (body.currency !== "ETB") return json(400, { message: { currency: ["The currency is invalid."] }, status: "failed", data: null });
      transactions.set(txRef, {
        tx_ref: txRef,
        amount: String(body.amount),
        currency: String(body.currency),
        email: String(body.email),
        first_name: String(body.first_name),
        last_name: String(body.last_name),
        status: "pending",
        reference: `AP${txRef.slice(-8)}`,
      });
      return json(200, {
        message: "Hosted Link",
        status: "success",
        data: { checkout_url: `https://checkout.chapa.co/checkout/payment/${txRef}` },
      });
    }
    const verify = path.match(/^\/v1\/transaction\/verify\/(.+)$/);
    if (verify && request.method === "GET") {
      const transaction = transactions.get(decodeURIComponent(verify[1]!));
      if (!transaction) return json(404, { message: "Invalid transaction or Transaction not found", status: "failed", data: null });
      return json(200, {
        message: "Payment details",
        status: "success",
        data: {
          ...transaction,
          amount: Number(transaction.amount),
          charge: 3.5,
          mode: "test",
          method: "telebirr",
          type: "API",
          customization: {},
          meta: null,
        },
      });
    }
    return json(404, { message: "Not found", status: "failed", data: null });
  });
  return {
    transactions,
    initializeBodies,
    authorizations,
    settle(txRef: string, status: string, changes: Partial<StandInTransaction> = {}) {
      const transaction = transactions.get(txRef);
      if (!transaction) throw new Error(`no stand-in transaction ${txRef}`);
      transactions.set(txRef, { ...transaction, ...changes, status });
    },
  };
}

/** A webhook body as Chapa posts it, with its signature headers. */
export async function chapaWebhook(secret: string, fields: Record<string, unknown>) {
  const body = JSON.stringify({ event: "charge.success", status: "success", currency: "ETB", ...fields });
  return { body, signature: await signWebhookBody(secret, body), staticSignature: await signWebhookBody(secret, secret) };
}
