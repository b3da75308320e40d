// The sandbox's refunds, answered as Chapa answers `POST /v1/refund/{tx_ref}` (form-encoded: reason,
// amount, reference, meta): a refund of a paid transaction, whole or in part, kept under
// `payment-sandbox/refunds/<reference>`, made at once and announced with a signed `charge.refunded`
// webhook that carries our reference in `meta`. A refund of the whole payment makes the transaction's
// verify say `refunded`; a partial one leaves it `success` (so only its webhook says it was made). Like
// Chapa, a second request under a reference it has is refused as "used before", whatever it asks. The
// refunds switch makes it refuse ("not eligible"), lose its answer after making it, be unreachable, or
// keep its webhook. Made before the answer, so its webhook arrives first: callers record a refund under
// its reference before asking.
import { birrDecimal, santimFromBirr } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import { MAX_REFERENCE_CHARS } from "./payment-provider.server";
import { type SandboxAnswer, sandboxFailure } from "./sandbox-answers.server";
import {
  latestSandboxRecords,
  readSandboxRecord,
  REFUNDS_PREFIX,
  sandboxReference,
  sandboxTransaction,
  saveSandboxTransaction,
  writeSandboxRecord,
} from "./sandbox-store.server";
import { sandboxSwitches } from "./sandbox-switches.server";
import { chargeWebhookPayload, postSandboxWebhook, sandboxWebhookUrl } from "./sandbox-webhook.server";

export interface SandboxRefund {
  reference: string;
  txRef: string;
  amountSantim: number;
  reason: string;
  /** `refused` when the switch said no: Chapa took nothing, and says so for good. */
  status: "refunded" | "refused";
  chapaReference: string;
  createdAt: number;
  updatedAt: number;
}

const refundKey = (reference: string) => `${REFUNDS_PREFIX}${reference}`;

export async function answerSandboxRefund(
  config: AppConfig,
  env: Env,
  origin: string,
  txRef: string,
  form: URLSearchParams,
): Promise<SandboxAnswer> {
  const switches = await sandboxSwitches(env);
  if (switches.refunds === "unreachable") return { status: 503, body: { message: "Service Unavailable" } };
  const reference = form.get("reference") ?? "";
  if (!reference || reference.length > MAX_REFERENCE_CHARS) return sandboxFailure(400, "The reference must be 1 to 100 characters");
  if (await readSandboxRecord<SandboxRefund>(env, refundKey(reference)))
    return sandboxFailure(400, "Refund reference has been used before");
  const transaction = await sandboxTransaction(env, txRef);
  if (!transaction) return sandboxFailure(404, "Invalid transaction or Transaction not found");
  if (transaction.status !== "success") return sandboxFailure(400, "This transaction is not eligible for refund");
  const leftSantim = transaction.amountSantim - (transaction.refundedSantim ?? 0);
  const amountSantim = form.has("amount") ? santimFromBirr(form.get("amount")) : leftSantim;
  if (amountSantim === null || amountSantim <= 0) return sandboxFailure(400, "The amount is invalid");
  if (amountSantim > leftSantim) return sandboxFailure(400, "The refund amount is more than what is left of the payment");

  const now = Date.now();
  const refund: SandboxRefund = {
    reference,
    txRef,
    amountSantim,
    reason: form.get("reason") ?? "",
    status: switches.refunds === "fail" ? "refused" : "refunded",
    chapaReference: sandboxReference(),
    createdAt: now,
    updatedAt: now,
  };
  await writeSandboxRecord(env, refundKey(reference), refund);
  if (refund.status === "refused") return sandboxFailure(400, "This transaction is not eligible for refund");

  const refundedSantim = (transaction.refundedSantim ?? 0) + amountSantim;
  const settled = { ...transaction, refundedSantim, status: refundedSantim === transaction.amountSantim ? "refunded" : "success" };
  await saveSandboxTransaction(env, settled);
  if (switches.refunds !== "drop_webhook")
    await postSandboxWebhook(
      config,
      env,
      sandboxWebhookUrl(origin),
      chargeWebhookPayload(settled, { event: "charge.refunded", status: "refunded", amountSantim, meta: { reference } }),
    );
  return {
    status: 200,
    body: {
      message: "Refund processed successfully",
      status: "success",
      data: {
        chapa_reference: refund.chapaReference,
        tx_ref: txRef,
        amount: birrDecimal(amountSantim),
        currency: "ETB",
        meta: { reference },
      },
    },
    lostAnswer: switches.refunds === "timeout_after_taking",
  };
}

export const latestSandboxRefunds = (env: Env, limit: number) => latestSandboxRecords<SandboxRefund>(env, REFUNDS_PREFIX, limit);
