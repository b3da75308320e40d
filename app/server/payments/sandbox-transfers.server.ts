// The sandbox's transfers (payouts), answered as Chapa answers `POST /v1/transfers`, `GET
// /v1/transfers/verify/{reference}` and `GET /v1/transfers`: a few real Ethiopian banks and wallets to
// send to, each transfer kept under `payment-sandbox/transfers/<reference>` with the fee Chapa takes for
// it, settled at once and announced with a signed `payout.success` or `payout.failed` webhook in Chapa's
// payout format. Like Chapa, a second transfer under a reference it has is refused as "used before". The
// payouts switch makes it fail (taken, then failed with a reason), lose its answer after taking it, keep
// it `queued` (verify says so until the switch is set otherwise), refuse it outside transfer hours, be
// unreachable, or keep its webhook. Settled before the answer: callers record a transfer before asking.
import { birrDecimal, santimFromBirr } from "~/domain/money";
import { SANDBOX_TRANSFER_FEE_SANTIM } from "~/domain/payment-sandbox";
import type { AppConfig } from "~/server/env.server";

import { type Bank, MAX_REFERENCE_CHARS } from "./payment-provider.server";
import { type SandboxAnswer, sandboxFailure } from "./sandbox-answers.server";
import {
  latestSandboxRecords,
  readSandboxRecord,
  sandboxRecords,
  sandboxReference,
  TRANSFERS_PREFIX,
  writeSandboxRecord,
} from "./sandbox-store.server";
import { sandboxSwitches } from "./sandbox-switches.server";
import { postSandboxWebhook, sandboxWebhookUrl } from "./sandbox-webhook.server";

/** Banks and wallets as Chapa lists them (the codes are the sandbox's own), with their account number lengths. */
const SANDBOX_BANKS: readonly Bank[] = [
  { code: "946", name: "Commercial Bank of Ethiopia (CBE)", isMobileMoney: false, accountNumberLength: 13, currency: "ETB" },
  { code: "656", name: "Awash Bank", isMobileMoney: false, accountNumberLength: 14, currency: "ETB" },
  { code: "880", name: "Dashen Bank", isMobileMoney: false, accountNumberLength: 13, currency: "ETB" },
  { code: "347", name: "Bank of Abyssinia", isMobileMoney: false, accountNumberLength: 8, currency: "ETB" },
  { code: "855", name: "telebirr", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
  { code: "128", name: "CBEBirr", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
  { code: "266", name: "M-Pesa", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
];

/** The banks answer in Chapa's format (flags as 1 or null, as its docs write them). */
export const sandboxBanksAnswer = (): SandboxAnswer => ({
  status: 200,
  body: {
    message: "Banks retrieved",
    data: SANDBOX_BANKS.map((bank) => ({
      id: Number(bank.code),
      name: bank.name,
      acct_length: bank.accountNumberLength,
      is_mobilemoney: bank.isMobileMoney ? 1 : null,
      is_active: 1,
      active: 1,
      currency: bank.currency,
    })),
  },
});

/** Why a transfer fails when the payouts switch says so (Chapa's reason would come from the bank). */
const SANDBOX_PAYOUT_FAILURE = "The receiving account could not be credited (sandbox: payouts are set to fail)";

export interface SandboxTransfer {
  reference: string;
  amountSantim: number;
  bankCode: string;
  bankName: string;
  accountName: string;
  accountNumber: string;
  /** `queued` is a word our adapter does not know: it asks again, then an admin decides. */
  status: "queued" | "success" | "failed";
  feeSantim: number;
  failureReason: string | null;
  chapaReference: string;
  createdAt: number;
  updatedAt: number;
}

const transferKey = (reference: string) => `${TRANSFERS_PREFIX}${reference}`;

interface TransferBody {
  account_name?: unknown;
  account_number?: unknown;
  amount?: unknown;
  currency?: unknown;
  reference?: unknown;
  bank_code?: unknown;
}

export async function answerSandboxTransfer(config: AppConfig, env: Env, origin: string, body: TransferBody): Promise<SandboxAnswer> {
  const switches = await sandboxSwitches(env);
  if (switches.payouts === "unreachable") return { status: 503, body: { message: "Service Unavailable" } };
  if (switches.payouts === "closed_hours")
    return sandboxFailure(400, "Transfers are processed Monday to Saturday from 8:30 to 16:30 (EAT)");
  const reference = typeof body.reference === "string" ? body.reference : "";
  if (!reference || reference.length > MAX_REFERENCE_CHARS) return sandboxFailure(400, "The reference must be 1 to 100 characters");
  if (await readSandboxRecord<SandboxTransfer>(env, transferKey(reference)))
    return sandboxFailure(400, "Transfer reference has been used before");
  const bank = SANDBOX_BANKS.find((candidate) => candidate.code === String(body.bank_code));
  if (!bank) return sandboxFailure(400, "Invalid bank code");
  const accountNumber = typeof body.account_number === "string" ? body.account_number : "";
  if (!/^\d+$/.test(accountNumber) || accountNumber.length !== bank.accountNumberLength)
    return sandboxFailure(400, `The account number must be ${bank.accountNumberLength} digits for ${bank.name}`);
  const accountName = typeof body.account_name === "string" ? body.account_name.trim() : "";
  if (!accountName) return sandboxFailure(400, "The account name is required");
  const amountSantim = santimFromBirr(body.amount);
  if (amountSantim === null || amountSantim <= 0 || body.currency !== "ETB") return sandboxFailure(400, "The amount is invalid");

  const now = Date.now();
  const fails = switches.payouts === "fail";
  const transfer: SandboxTransfer = {
    reference,
    amountSantim,
    bankCode: bank.code,
    bankName: bank.name,
    accountName,
    accountNumber,
    status: switches.payouts === "queued" ? "queued" : fails ? "failed" : "success",
    feeSantim: fails ? 0 : SANDBOX_TRANSFER_FEE_SANTIM,
    failureReason: fails ? SANDBOX_PAYOUT_FAILURE : null,
    chapaReference: sandboxReference(),
    createdAt: now,
    updatedAt: now,
  };
  await writeSandboxRecord(env, transferKey(reference), transfer);
  if (transfer.status !== "queued" && switches.payouts !== "drop_webhook")
    await postSandboxWebhook(config, env, sandboxWebhookUrl(origin), payoutWebhookPayload(transfer));
  return {
    status: 200,
    body: { message: "Transfer Queued Successfully", status: "success", data: reference },
    lostAnswer: switches.payouts === "timeout_after_taking",
  };
}

/** A transfer as Chapa's verify and list give it. */
function transferData(transfer: SandboxTransfer) {
  return {
    account_name: transfer.accountName,
    account_number: transfer.accountNumber,
    currency: "ETB",
    // Chapa writes a transfer's amounts as JSON numbers (its SDK types them so); the adapter reads their digits.
    amount: Number(birrDecimal(transfer.amountSantim)),
    charge: Number(birrDecimal(transfer.feeSantim)),
    mode: "test",
    chapa_transfer_id: transfer.chapaReference,
    chapa_reference: transfer.chapaReference,
    bank_code: Number(transfer.bankCode),
    bank_name: transfer.bankName,
    status: transfer.status,
    failure_reason: transfer.failureReason,
    tx_ref: transfer.reference,
    reference: transfer.reference,
    created_at: new Date(transfer.createdAt).toISOString(),
    updated_at: new Date(transfer.updatedAt).toISOString(),
  };
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
    charge: birrDecimal(transfer.feeSantim),
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

/** Transfer verify; a queued transfer goes through (with its webhook) once the switch no longer holds it. */
export async function answerSandboxTransferVerify(config: AppConfig, env: Env, origin: string, reference: string): Promise<SandboxAnswer> {
  const switches = await sandboxSwitches(env);
  if (switches.payouts === "unreachable") return { status: 503, body: { message: "Service Unavailable" } };
  let transfer = await readSandboxRecord<SandboxTransfer>(env, transferKey(reference));
  if (!transfer) return sandboxFailure(404, "Transfer not found");
  if (transfer.status === "queued" && switches.payouts !== "queued") {
    transfer = { ...transfer, status: "success", updatedAt: Date.now() };
    await writeSandboxRecord(env, transferKey(reference), transfer);
    await postSandboxWebhook(config, env, sandboxWebhookUrl(origin), payoutWebhookPayload(transfer));
  }
  return { status: 200, body: { message: "Transfer details", status: "success", data: transferData(transfer) } };
}

/** Every transfer, newest first, in pages as Chapa's list gives them (unreachable with its transfers). */
export async function answerSandboxTransfers(env: Env, url: URL, perPage: number): Promise<SandboxAnswer> {
  if ((await sandboxSwitches(env)).payouts === "unreachable") return { status: 503, body: { message: "Service Unavailable" } };
  const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
  const all = await sandboxRecords<SandboxTransfer>(env, TRANSFERS_PREFIX);
  const shown = all.slice((page - 1) * perPage, page * perPage);
  const next = page * perPage < all.length ? `${url.origin}${url.pathname}?page=${page + 1}` : null;
  return {
    status: 200,
    body: {
      message: "Transfers retrieved",
      status: "success",
      data: shown.map(transferData),
      meta: { current_page: page, per_page: perPage, next_page_url: next },
    },
  };
}

export const sandboxTransfers = (env: Env) => sandboxRecords<SandboxTransfer>(env, TRANSFERS_PREFIX);
export const latestSandboxTransfers = (env: Env, limit: number) => latestSandboxRecords<SandboxTransfer>(env, TRANSFERS_PREFIX, limit);
