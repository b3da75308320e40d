// The local sandbox (development and tests; off in production), a stand-in for Chapa that speaks its
// API: the sandbox provider *is* the Chapa adapter (chapa.server.ts), whose requests are answered here
// in Chapa's formats instead of over the internet, so the code that reads Chapa's answers runs locally
// too. It keeps each transaction as Chapa would, in R2 under `payment-sandbox/` (sandbox-store.server.ts),
// shows a checkout page with Pay and Fail (routes/dev.payments.checkout.$txRef.tsx), posts webhooks
// signed exactly as Chapa signs them (sandbox-webhook.server.ts), refunds (sandbox-refunds.server.ts),
// sends transfers to a few real banks and wallets (sandbox-transfers.server.ts), lists transactions and
// transfers, reports its balance, and misbehaves as Chapa does when its switches say so
// (sandbox-switches.server.ts, /dev/payments). Its page can also play Chapa's dashboard: a refund made
// there, or a chargeback from the patient's bank, each with its webhook.
import { birrDecimal, santimFromBirr } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import { chapaProvider } from "./chapa.server";
import type { PaymentProvider } from "./payment-provider.server";
import { type SandboxAnswer, sandboxFailure } from "./sandbox-answers.server";
import { answerSandboxRefund } from "./sandbox-refunds.server";
import {
  hasSandboxTransaction,
  sandboxChargeOf,
  sandboxReference,
  type SandboxTransaction,
  sandboxTransaction,
  sandboxTransactions,
  saveSandboxTransaction,
} from "./sandbox-store.server";
import {
  answerSandboxTransfer,
  answerSandboxTransfers,
  answerSandboxTransferVerify,
  sandboxBanksAnswer,
  sandboxTransfers,
} from "./sandbox-transfers.server";
import { chargeWebhookPayload, postSandboxWebhook, sandboxWebhookSecret } from "./sandbox-webhook.server";

/** Where the adapter thinks the sandbox is: never fetched over a network, answered in process. */
const SANDBOX_API_URL = "https://chapa-sandbox.qoda.invalid";
/** Entries in one page of a list, as Chapa pages them. */
const LIST_PAGE_SIZE = 50;

export function sandboxProvider(config: AppConfig, env: Env, origin: string): PaymentProvider {
  return chapaProvider(config, {
    name: "sandbox",
    baseUrl: SANDBOX_API_URL,
    secretKey: "CHASECK_TEST-qoda-sandbox",
    webhookSecret: sandboxWebhookSecret(config),
    local: true,
    fetch: async (input, init) => {
      const answer = await answerAsChapa(config, env, origin, new Request(input, init));
      // Taken, and the answer lost on its way back: the caller sees what a timeout looks like.
      if (answer.lostAnswer) throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
      return Response.json(answer.body, { status: answer.status });
    },
  });
}

/** One call to the sandbox's API, answered as Chapa answers it. */
async function answerAsChapa(config: AppConfig, env: Env, origin: string, request: Request): Promise<SandboxAnswer> {
  const url = new URL(request.url);
  const path = url.pathname;
  const method = request.method;
  if (method === "POST" && path === "/v1/transaction/initialize") return initialize(env, origin, await request.json());
  const verify = /^\/v1\/transaction\/verify\/([^/]+)$/.exec(path);
  if (method === "GET" && verify) return verifyTransaction(env, decodeURIComponent(verify[1]!));
  const refund = /^\/v1\/refund\/([^/]+)$/.exec(path);
  if (method === "POST" && refund) return answerSandboxRefund(config, env, origin, decodeURIComponent(refund[1]!), await formOf(request));
  if (method === "GET" && path === "/v1/banks") return sandboxBanksAnswer();
  if (method === "POST" && path === "/v1/transfers") return answerSandboxTransfer(config, env, origin, await request.json());
  const transferVerify = /^\/v1\/transfers\/verify\/([^/]+)$/.exec(path);
  if (method === "GET" && transferVerify) return answerSandboxTransferVerify(config, env, origin, decodeURIComponent(transferVerify[1]!));
  if (method === "GET" && path === "/v1/transfers") return answerSandboxTransfers(env, url, LIST_PAGE_SIZE);
  if (method === "GET" && path === "/v1/transactions") return listTransactions(env, url);
  if (method === "GET" && path === "/v1/balances") return balances(env);
  return sandboxFailure(404, "Not found");
}

/** A form-encoded body (as Chapa's refund takes it) as its fields. */
async function formOf(request: Request): Promise<URLSearchParams> {
  const fields = new URLSearchParams();
  for (const [name, value] of await request.formData()) if (typeof value === "string") fields.append(name, value);
  return fields;
}

interface InitializeBody {
  tx_ref?: unknown;
  amount?: unknown;
  currency?: unknown;
  email?: unknown;
  first_name?: unknown;
  last_name?: unknown;
  callback_url?: unknown;
  return_url?: unknown;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** Whether `url` is an address of the app at `origin`: the only place the sandbox sends a browser or a webhook. */
function isOnOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

async function initialize(env: Env, origin: string, body: InitializeBody): Promise<SandboxAnswer> {
  const txRef = text(body.tx_ref);
  if (!txRef) return sandboxFailure(400, "tx_ref is required");
  const addresses = { callback_url: text(body.callback_url), return_url: text(body.return_url) };
  for (const [field, url] of Object.entries(addresses))
    if (!isOnOrigin(url, origin)) return sandboxFailure(400, `The ${field} must be an address on ${origin}`);
  if (await hasSandboxTransaction(env, txRef)) return sandboxFailure(400, "Transaction reference has been used before");
  const amountSantim = santimFromBirr(body.amount);
  if (amountSantim === null || amountSantim <= 0) return sandboxFailure(400, "The amount is invalid");
  if (body.currency !== "ETB")
    return { status: 400, body: { message: { currency: ["The currency is invalid."] }, status: "failed", data: null } };
  await saveSandboxTransaction(env, {
    txRef,
    amountSantim,
    email: text(body.email),
    firstName: text(body.first_name),
    lastName: text(body.last_name),
    callbackUrl: text(body.callback_url),
    returnUrl: text(body.return_url),
    status: "pending",
    reference: sandboxReference(),
    createdAt: Date.now(),
  });
  return {
    status: 200,
    body: {
      message: "Hosted Link",
      status: "success",
      data: { checkout_url: `${origin}/dev/payments/checkout/${encodeURIComponent(txRef)}` },
    },
  };
}

/** A transaction as Chapa's verify and list write it. */
function transactionData(transaction: SandboxTransaction) {
  return {
    first_name: transaction.firstName,
    last_name: transaction.lastName,
    email: transaction.email,
    currency: transaction.currency ?? "ETB",
    amount: birrDecimal(transaction.amountSantim),
    charge: birrDecimal(sandboxChargeOf(transaction.amountSantim)),
    mode: "test",
    method: "sandbox",
    type: "API",
    status: transaction.status,
    reference: transaction.reference,
    tx_ref: transaction.txRef,
    created_at: new Date(transaction.createdAt).toISOString(),
  };
}

async function verifyTransaction(env: Env, txRef: string): Promise<SandboxAnswer> {
  const transaction = await sandboxTransaction(env, txRef);
  if (!transaction) return sandboxFailure(404, "Invalid transaction or Transaction not found");
  return { status: 200, body: { message: "Payment details", status: "success", data: transactionData(transaction) } };
}

async function listTransactions(env: Env, url: URL): Promise<SandboxAnswer> {
  const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
  const all = await sandboxTransactions(env);
  const shown = all.slice((page - 1) * LIST_PAGE_SIZE, page * LIST_PAGE_SIZE);
  const next = page * LIST_PAGE_SIZE < all.length ? `${url.origin}${url.pathname}?page=${page + 1}` : null;
  return {
    status: 200,
    body: {
      message: "Transactions retrieved",
      status: "success",
      data: {
        transactions: shown.map((transaction) => {
          const { status, amount, charge, currency, created_at, tx_ref, reference } = transactionData(transaction);
          return {
            status,
            ref_id: reference,
            tx_ref,
            type: "API",
            created_at,
            currency,
            amount,
            charge,
            trans_id: reference,
            payment_method: "sandbox",
            customer: { email: transaction.email, first_name: transaction.firstName, last_name: transaction.lastName },
          };
        }),
        pagination: { per_page: LIST_PAGE_SIZE, current_page: page, next_page_url: next },
      },
    },
  };
}

/** What the sandbox holds: what was paid less its charge, less what went back and what was sent out (with its fee). */
export async function sandboxBalanceSantim(env: Env): Promise<number> {
  const [transactions, transfers] = await Promise.all([sandboxTransactions(env), sandboxTransfers(env)]);
  const received = transactions
    .filter((transaction) => ["success", "refunded", "reversed"].includes(transaction.status))
    .reduce(
      (sum, transaction) => sum + transaction.amountSantim - sandboxChargeOf(transaction.amountSantim) - (transaction.refundedSantim ?? 0),
      0,
    );
  const sent = transfers
    .filter((transfer) => transfer.status !== "failed")
    .reduce((sum, transfer) => sum + transfer.amountSantim + transfer.feeSantim, 0);
  return received - sent;
}

async function balances(env: Env): Promise<SandboxAnswer> {
  // Chapa writes balances as JSON numbers; the adapter reads their digits.
  const balance = Number(birrDecimal(await sandboxBalanceSantim(env)));
  return {
    status: 200,
    body: {
      message: "Balance retrieved",
      status: "success",
      data: [{ currency: "ETB", available_balance: balance, ledger_balance: balance }],
    },
  };
}

/**
 * The patient's choice on the sandbox checkout page served at `origin`: the transaction is settled, and a
 * successful one is announced to the callback URL in Chapa's webhook format and signature. Returns where
 * the browser goes; `not_found`; or `off_site`, settling nothing, when its return or callback URL is not
 * an address on `origin` (the sandbox sends no browser and no webhook elsewhere).
 */
export async function settleSandboxTransaction(
  config: AppConfig,
  env: Env,
  txRef: string,
  outcome: "success" | "failed",
  origin: string,
): Promise<{ returnUrl: string } | "not_found" | "off_site"> {
  const transaction = await sandboxTransaction(env, txRef);
  if (!transaction) return "not_found";
  if (!isOnOrigin(transaction.returnUrl, origin) || !isOnOrigin(transaction.callbackUrl, origin)) return "off_site";
  if (transaction.status !== "pending") return { returnUrl: transaction.returnUrl };
  const settled: SandboxTransaction = { ...transaction, status: outcome };
  await saveSandboxTransaction(env, settled);
  if (outcome === "success")
    await postSandboxWebhook(
      config,
      env,
      settled.callbackUrl,
      chargeWebhookPayload(settled, { event: "charge.success", status: "success", amountSantim: settled.amountSantim, meta: null }),
    );
  return { returnUrl: settled.returnUrl };
}

/**
 * What Chapa's dashboard or the patient's bank can do to a paid transaction without us: refund it whole
 * (`refunded`, a `charge.refunded` webhook with no reference of ours) or charge it back (`reversed`, a
 * `charge.reversed` webhook). False when there is no such paid transaction.
 */
export async function takeBackSandboxTransaction(
  config: AppConfig,
  env: Env,
  txRef: string,
  how: "refunded" | "reversed",
): Promise<boolean> {
  const transaction = await sandboxTransaction(env, txRef);
  if (!transaction || transaction.status !== "success") return false;
  const leftSantim = transaction.amountSantim - (transaction.refundedSantim ?? 0);
  const taken: SandboxTransaction = { ...transaction, status: how, refundedSantim: transaction.amountSantim };
  await saveSandboxTransaction(env, taken);
  await postSandboxWebhook(
    config,
    env,
    taken.callbackUrl,
    chargeWebhookPayload(taken, {
      event: how === "refunded" ? "charge.refunded" : "charge.reversed",
      status: how,
      amountSantim: leftSantim,
      meta: null,
    }),
  );
  return true;
}
