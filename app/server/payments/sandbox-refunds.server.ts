// The sandbox's refunds, as Chapa would handle them: a refund of a paid transaction, whole or in part,
// kept under `payment-sandbox/refunds/<reference>`, settled at once and announced with a signed
// `charge.refunded` webhook that carries our reference in `meta`, as Chapa returns the meta it was sent.
// A refund of the whole payment makes the transaction's verify say `refunded`. The refunds switch can
// make it refuse, or keep its webhook. Settled before the answer, so its webhook arrives first: callers
// record a refund under its reference before asking (with Chapa too, a webhook can beat the answer).
import type { AppConfig } from "~/server/env.server";

import {
  assertPositiveSantim,
  MAX_REFERENCE_CHARS,
  type RefundOutcome,
  type RefundRequest,
  type VerifiedRefund,
} from "./payment-provider.server";
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
  /** `refused` when the switch said no: Chapa took nothing, so the reference may be used again. */
  status: "pending" | "refunded" | "refused";
  chapaReference: string;
  createdAt: number;
  updatedAt: number;
}

const refundKey = (reference: string) => `${REFUNDS_PREFIX}${reference}`;

const refused = (message: string): RefundOutcome => ({ kind: "refused", message });

export async function requestSandboxRefund(config: AppConfig, env: Env, origin: string, request: RefundRequest): Promise<RefundOutcome> {
  assertPositiveSantim(request.amountSantim);
  if (!request.reference || request.reference.length > MAX_REFERENCE_CHARS) return refused("The reference must be 1 to 100 characters");
  const earlier = await readSandboxRecord<SandboxRefund>(env, refundKey(request.reference));
  if (earlier && earlier.status !== "refused") {
    // The same request again is the same refund (no second webhook); another under its reference is refused.
    const same = earlier.txRef === request.txRef && earlier.amountSantim === request.amountSantim;
    return same ? { kind: "accepted", providerReference: earlier.chapaReference } : refused("Refund reference has been used before");
  }
  const transaction = await sandboxTransaction(env, request.txRef);
  if (!transaction) return refused("Invalid transaction or Transaction not found");
  if (transaction.status !== "success") return refused(`A transaction that is ${transaction.status} cannot be refunded`);
  const leftSantim = transaction.amountSantim - (transaction.refundedSantim ?? 0);
  if (request.amountSantim > leftSantim) return refused("The refund amount is more than what is left of the payment");

  const switches = await sandboxSwitches(env);
  const now = Date.now();
  const refund: SandboxRefund = {
    ...request,
    status: switches.refunds === "fail" ? "refused" : "pending",
    chapaReference: sandboxReference(),
    createdAt: now,
    updatedAt: now,
  };
  await writeSandboxRecord(env, refundKey(refund.reference), refund);
  if (refund.status === "refused") return refused("The sandbox refuses refunds (its refunds switch is set to fail)");

  const refundedSantim = (transaction.refundedSantim ?? 0) + refund.amountSantim;
  const settledTransaction = {
    ...transaction,
    refundedSantim,
    status: refundedSantim === transaction.amountSantim ? "refunded" : "success",
  };
  await saveSandboxTransaction(env, settledTransaction);
  await writeSandboxRecord(env, refundKey(refund.reference), { ...refund, status: "refunded", updatedAt: Date.now() });
  if (switches.refunds !== "drop_webhook") {
    const payload = chargeWebhookPayload(settledTransaction, {
      event: "charge.refunded",
      status: "refunded",
      amountSantim: refund.amountSantim,
      meta: { reference: refund.reference },
    });
    await postSandboxWebhook(config, sandboxWebhookUrl(origin), payload);
  }
  return { kind: "accepted", providerReference: refund.chapaReference };
}

const REFUND_STATUSES = { pending: "pending", refunded: "refunded", refused: "failed" } as const;

export async function verifySandboxRefund(
  env: Env,
  { txRef, reference }: { txRef: string; reference: string },
): Promise<VerifiedRefund | null> {
  const refund = await readSandboxRecord<SandboxRefund>(env, refundKey(reference));
  if (!refund || refund.txRef !== txRef) return null;
  return {
    status: REFUND_STATUSES[refund.status],
    providerStatus: refund.status,
    amountSantim: refund.status === "refunded" ? refund.amountSantim : null,
  };
}

export const latestSandboxRefunds = (env: Env, limit: number) => latestSandboxRecords<SandboxRefund>(env, REFUNDS_PREFIX, limit);
