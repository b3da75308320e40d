import type { ActionFunctionArgs } from "@remix-run/cloudflare";

import { type ConfirmationOutcome, confirmPayment } from "~/server/consultations/confirm-payment.server";
import { settlePayout } from "~/server/money/payouts.server";
import { settleRefundsOf } from "~/server/money/refunds.server";
import { paymentProvider } from "~/server/payments/provider.server";
import { readWebhookEvent } from "~/server/payments/webhook-event.server";
import { isValidWebhookSignature } from "~/server/payments/webhook-signature.server";
import { deliverTidings } from "~/server/tidings.server";

/** Chapa's webhooks are a few hundred bytes; anything near this is not one. */
const MAX_WEBHOOK_BYTES = 16 * 1024;

const answer = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

const STATUS_OF: Record<ConfirmationOutcome["kind"], number> = {
  confirmed: 200,
  already_confirmed: 200,
  late: 200,
  not_paid: 200,
  unknown: 404,
  // Recorded and flagged for an admin: a repeat would change nothing.
  mismatch: 422,
  flagged: 200,
  // The provider could not be asked: a later delivery (or the job) tries again.
  unverified: 503,
};

/** Only the provider's POST means anything here. */
export const loader = () => answer(405, "Method Not Allowed");

// The payment provider's webhook (Chapa, or the local sandbox in its format). Acted on only with a valid
// x-chapa-signature over the raw body, and then only after the provider's own verify agrees.
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return answer(405, "Method Not Allowed");
  const declaredBytes = Number(request.headers.get("Content-Length") ?? 0);
  if (declaredBytes > MAX_WEBHOOK_BYTES) return answer(413, "Payload Too Large");
  const rawBody = await request.text();
  if (new TextEncoder().encode(rawBody).byteLength > MAX_WEBHOOK_BYTES) return answer(413, "Payload Too Large");

  const env = context.cloudflare.env;
  const origin = new URL(request.url).origin;
  const provider = paymentProvider(context.config, env, origin);
  if (!(await isValidWebhookSignature(provider.webhookSecret, rawBody, request.headers.get("x-chapa-signature"))))
    return answer(401, "Invalid signature");

  const event = readWebhookEvent(rawBody);
  if (!event) return answer(400, "Not an event we know");
  const now = new Date();
  // Every event is only a prompt: each settlement asks the provider itself before anything changes.
  if (event.kind === "refund") {
    const outcome = await settleRefundsOf(env, context.config, event, now);
    // The provider could not be asked whether the payment was taken back: a later delivery asks again.
    return answer(outcome === "unverified" ? 503 : 200, outcome);
  }
  if (event.kind === "payout") return answer(200, await settlePayout(env, context.config, event.reference, now));
  const outcome = await confirmPayment(env, context.config, origin, event.txRef, now);
  if (outcome.kind === "confirmed") await deliverTidings(context.db, context.config, outcome.outgoing, context);
  return answer(STATUS_OF[outcome.kind], outcome.kind);
}
