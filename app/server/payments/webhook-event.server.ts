// What a payment provider's webhook says happened, read from its raw body (pure: no I/O, no signature;
// the route checks the signature first). Chapa's formats (developer.chapa.co/integrations/webhooks):
// a transaction's events (`charge.success`, `charge.refunded`, `charge.reversed`) carry our `tx_ref`,
// Chapa's own `reference` of the payment, and the `meta` we sent (a refund's meta holds our refund
// reference); a transfer's (`type: "Payout"`: `payout.success`, `payout.failed`, which Chapa's page also
// calls cancelled) carry our transfer `reference`. Older charge webhooks may have no `event`: a body
// with a tx_ref alone is read as a charge, as the webhook route always has.
import { z } from "zod";

import { santimFromBirr } from "~/domain/money";

import { MAX_REFERENCE_CHARS } from "./payment-provider.server";

export type WebhookEvent =
  | { kind: "charge"; txRef: string }
  | { kind: "refund"; txRef: string; reference: string | null; status: "refunded" | "reversed"; amountSantim: number | null }
  | { kind: "payout"; reference: string; status: "success" | "failed"; failureReason: string | null };

/** A failure reason is for an admin to read; beyond this it is cut. */
const MAX_REASON_CHARS = 500;

const Reference = z.string().min(1).max(MAX_REFERENCE_CHARS);

// Each field is read on its own below (zod 4 requires an unknown() key unless it is optional()).
const WebhookBody = z.object({
  event: z.string().optional(),
  tx_ref: z.unknown().optional(),
  reference: z.unknown().optional(),
  meta: z.unknown().optional(),
  amount: z.unknown().optional(),
  failure_reason: z.unknown().optional(),
});

const REFUND_EVENTS = { "charge.refunded": "refunded", "charge.reversed": "reversed" } as const;
const PAYOUT_EVENTS = { "payout.success": "success", "payout.failed": "failed", "payout.cancelled": "failed" } as const;

const isOneOf = <Events extends object>(events: Events, event: string): event is Extract<keyof Events, string> =>
  Object.hasOwn(events, event);

/** The refund reference we sent in `meta`: absent is null; present but not a reference spoils the event. */
function metaReferenceOf(meta: unknown): string | null | undefined {
  const reference = typeof meta === "object" && meta !== null ? (meta as { reference?: unknown }).reference : undefined;
  if (reference === undefined || reference === null) return null;
  const read = Reference.safeParse(reference);
  return read.success ? read.data : undefined;
}

/** The event in a webhook body, or null when it is not JSON, not an event we know, or its references are not ours. */
export function readWebhookEvent(rawBody: string): WebhookEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const body = WebhookBody.safeParse(json);
  if (!body.success) return null;
  const { event, tx_ref, reference, meta, amount, failure_reason } = body.data;

  if (event === undefined || event === "charge.success") {
    const txRef = Reference.safeParse(tx_ref);
    return txRef.success ? { kind: "charge", txRef: txRef.data } : null;
  }
  if (isOneOf(REFUND_EVENTS, event)) {
    const txRef = Reference.safeParse(tx_ref);
    const refundReference = metaReferenceOf(meta);
    if (!txRef.success || refundReference === undefined) return null;
    const amountSantim = santimFromBirr(amount);
    return {
      kind: "refund",
      txRef: txRef.data,
      reference: refundReference,
      status: REFUND_EVENTS[event],
      amountSantim: amountSantim !== null && amountSantim > 0 ? amountSantim : null,
    };
  }
  if (isOneOf(PAYOUT_EVENTS, event)) {
    const payoutReference = Reference.safeParse(reference);
    if (!payoutReference.success) return null;
    const status = PAYOUT_EVENTS[event];
    const failureReason =
      status === "failed" && typeof failure_reason === "string" && failure_reason ? failure_reason.slice(0, MAX_REASON_CHARS) : null;
    return { kind: "payout", reference: payoutReference.data, status, failureReason };
  }
  return null;
}
