// The sandbox's transfers (payouts), as Chapa would handle them: a few real Ethiopian banks and wallets
// to send to, each transfer kept under `payment-sandbox/transfers/<reference>`, settled at once and
// announced with a signed `payout.success` or `payout.failed` webhook in Chapa's payout format. The
// payouts switch can make it fail (taken, then failed with a reason) or keep its webhook. Settled before
// the answer: callers record a transfer under its reference before asking.
import { birrDecimal } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import {
  assertPositiveSantim,
  type Bank,
  MAX_REFERENCE_CHARS,
  type TransferOutcome,
  type TransferRequest,
  type VerifiedTransfer,
} from "./payment-provider.server";
import { latestSandboxRecords, readSandboxRecord, sandboxReference, TRANSFERS_PREFIX, writeSandboxRecord } from "./sandbox-store.server";
import { sandboxSwitches } from "./sandbox-switches.server";
import { postSandboxWebhook, sandboxWebhookUrl } from "./sandbox-webhook.server";

/** Banks and wallets as Chapa lists them (the codes are the sandbox's own), with their account number lengths. */
export const SANDBOX_BANKS: readonly Bank[] = [
  { code: "946", name: "Commercial Bank of Ethiopia (CBE)", isMobileMoney: false, accountNumberLength: 13, currency: "ETB" },
  { code: "656", name: "Awash Bank", isMobileMoney: false, accountNumberLength: 14, currency: "ETB" },
  { code: "880", name: "Dashen Bank", isMobileMoney: false, accountNumberLength: 13, currency: "ETB" },
  { code: "347", name: "Bank of Abyssinia", isMobileMoney: false, accountNumberLength: 8, currency: "ETB" },
  { code: "855", name: "telebirr", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
  { code: "128", name: "CBEBirr", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
  { code: "266", name: "M-Pesa", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
];

/** Why a transfer fails when the payouts switch says so (Chapa's reason would come from the bank). */
const SANDBOX_PAYOUT_FAILURE = "The receiving account could not be credited (sandbox: payouts are set to fail)";

export interface SandboxTransfer extends TransferRequest {
  bankName: string;
  status: "pending" | "success" | "failed";
  failureReason: string | null;
  chapaReference: string;
  createdAt: number;
  updatedAt: number;
}

const transferKey = (reference: string) => `${TRANSFERS_PREFIX}${reference}`;

const refused = (message: string): TransferOutcome => ({ kind: "refused", message });

const sameTransfer = (a: TransferRequest, b: TransferRequest) =>
  a.amountSantim === b.amountSantim && a.bankCode === b.bankCode && a.accountNumber === b.accountNumber && a.accountName === b.accountName;

export async function requestSandboxTransfer(
  config: AppConfig,
  env: Env,
  origin: string,
  request: TransferRequest,
): Promise<TransferOutcome> {
  assertPositiveSantim(request.amountSantim);
  if (!request.reference || request.reference.length > MAX_REFERENCE_CHARS) return refused("The reference must be 1 to 100 characters");
  const earlier = await readSandboxRecord<SandboxTransfer>(env, transferKey(request.reference));
  // The same request again is the same transfer (no second webhook); another under its reference is refused.
  if (earlier)
    return sameTransfer(earlier, request)
      ? { kind: "accepted", providerReference: earlier.chapaReference }
      : refused("Transfer reference has been used before");
  const bank = SANDBOX_BANKS.find((candidate) => candidate.code === request.bankCode);
  if (!bank) return refused("Invalid bank code");
  if (!/^\d+$/.test(request.accountNumber) || request.accountNumber.length !== bank.accountNumberLength)
    return refused(`The account number must be ${bank.accountNumberLength} digits for ${bank.name}`);
  if (!request.accountName.trim()) return refused("The account name is required");

  const switches = await sandboxSwitches(env);
  const now = Date.now();
  const transfer: SandboxTransfer = {
    ...request,
    bankName: bank.name,
    status: "pending",
    failureReason: null,
    chapaReference: sandboxReference(),
    createdAt: now,
    updatedAt: now,
  };
  await writeSandboxRecord(env, transferKey(transfer.reference), transfer);
  const fails = switches.payouts === "fail";
  const settled: SandboxTransfer = {
    ...transfer,
    status: fails ? "failed" : "success",
    failureReason: fails ? SANDBOX_PAYOUT_FAILURE : null,
    updatedAt: Date.now(),
  };
  await writeSandboxRecord(env, transferKey(transfer.reference), settled);
  if (switches.payouts !== "drop_webhook") await postSandboxWebhook(config, sandboxWebhookUrl(origin), payoutWebhookPayload(settled));
  return { kind: "accepted", providerReference: transfer.chapaReference };
}

/** A transfer's webhook in Chapa's payout format. */
function payoutWebhookPayload(transfer: SandboxTransfer) {
  return {
    event: `payout.${transfer.status}`,
    type: "Payout",
    account_name: transfer.accountName,
    account_number: transfer.accountNumber,
    bank_id: Number(transfer.bankCode),
    bank_name: transfer.bankName,
    amount: birrDecimal(transfer.amountSantim),
    charge: "0.00",
    currency: "ETB",
    status: transfer.status,
    failure_reason: transfer.failureReason,
    reference: transfer.reference,
    chapa_reference: transfer.chapaReference,
    bank_reference: transfer.status === "success" ? `BNK${transfer.chapaReference.slice(3)}` : null,
    created_at: new Date(transfer.createdAt).toISOString(),
    updated_at: new Date(transfer.updatedAt).toISOString(),
  };
}

export async function verifySandboxTransfer(env: Env, reference: string): Promise<VerifiedTransfer | null> {
  const transfer = await readSandboxRecord<SandboxTransfer>(env, transferKey(reference));
  if (!transfer) return null;
  return {
    status: transfer.status,
    providerStatus: transfer.status,
    amountSantim: transfer.amountSantim,
    failureReason: transfer.failureReason,
  };
}

export const latestSandboxTransfers = (env: Env, limit: number) => latestSandboxRecords<SandboxTransfer>(env, TRANSFERS_PREFIX, limit);
