// An in-process stand-in for Chapa's API, answering in its documented formats (developer.chapa.co; the
// sources are listed at the top of app/server/payments/chapa.server.ts): initialize gives a hosted
// checkout URL, a reused tx_ref is refused as Chapa words it, and verify reads a transaction back; a
// refund (form-encoded) gives a paid transaction back, whole or in part; banks lists banks and wallets
// (one inactive); a transfer is queued, and its verify reads it back. Tests settle transactions and
// transfers and sign webhooks as Chapa would.
import { vi } from "vitest";

import { birrDecimal, santimFromBirr } from "~/domain/money";
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
  /** Decimal birr given back so far. */
  refunded?: string;
}

interface StandInTransfer {
  account_name: string;
  account_number: string;
  amount: number;
  currency: string;
  bank_code: number;
  /** Chapa's word for it: pending until a test settles it. */
  status: string;
  tx_ref: string;
  chapa_transfer_id: string;
  failure_reason?: string | null;
}

/** Chapa's banks answer: a bank, a wallet, one without an account length, and one no longer active. */
const STAND_IN_BANKS = [
  {
    id: 946,
    slug: "cbe",
    swift: "CBETETAA",
    name: "Commercial Bank of Ethiopia",
    acct_length: 13,
    country_id: 1,
    is_mobilemoney: null,
    is_active: 1,
    is_rtgs: 1,
    active: 1,
    is_24hrs: null,
    currency: "ETB",
  },
  {
    id: 855,
    slug: "telebirr",
    swift: "TELEBIRR",
    name: "telebirr",
    acct_length: 10,
    country_id: 1,
    is_mobilemoney: 1,
    is_active: 1,
    is_rtgs: null,
    active: 1,
    is_24hrs: 1,
    currency: "ETB",
  },
  {
    id: 130,
    slug: "abay_bank",
    swift: "ABAYETAA",
    name: "Abay Bank",
    acct_length: null,
    country_id: 1,
    is_mobilemoney: null,
    is_active: 1,
    is_rtgs: 1,
    active: 1,
    is_24hrs: null,
    currency: "ETB",
  },
  {
    id: 777,
    slug: "closed_bank",
    swift: "CLOSETAA",
    name: "Closed Bank",
    acct_length: 12,
    country_id: 1,
    is_mobilemoney: null,
    is_active: 0,
    is_rtgs: null,
    active: 0,
    is_24hrs: null,
    currency: "ETB",
  },
];

const santimOf = (birr: string) => santimFromBirr(birr) ?? Number.NaN;

export function chapaStandIn() {
  const transactions = new Map<string, StandInTransaction>();
  const transfers = new Map<string, StandInTransfer>();
  const initializeBodies: Array<Record<string, unknown>> = [];
  const refundForms: Array<{ txRef: string; contentType: string; form: URLSearchParams }> = [];
  const transferBodies: Array<Record<string, unknown>> = [];
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
    const refund = path.match(/^\/v1\/refund\/(.+)$/);
    if (refund && request.method === "POST") {
      const txRef = decodeURIComponent(refund[1]!);
      const form = new URLSearchParams(await request.text());
      refundForms.push({ txRef, contentType: request.headers.get("Content-Type") ?? "", form });
      const transaction = transactions.get(txRef);
      if (!transaction) return json(404, { message: "Invalid transaction or Transaction not found", status: "failed", data: null });
      if (transaction.status !== "success")
        return json(400, { message: "Transaction is not eligible for refund", status: "failed", data: null });
      const left = santimOf(transaction.amount) - santimOf(transaction.refunded ?? "0");
      const asked = santimOf(form.get("amount") ?? transaction.amount);
      if (!(asked > 0) || asked > left)
        return json(400, { message: { amount: ["The amount exceeds the refundable amount."] }, status: "failed", data: null });
      const refunded = birrDecimal(santimOf(transaction.refunded ?? "0") + asked);
      transactions.set(txRef, { ...transaction, refunded, status: asked === left ? "refunded" : "success" });
      return json(200, {
        message: "Refund queued",
        status: "success",
        data: { tx_ref: txRef, amount: form.get("amount"), chapa_reference: `RF${txRef.slice(-8)}` },
      });
    }
    if (path === "/v1/banks" && request.method === "GET") return json(200, { message: "Banks retrieved", data: STAND_IN_BANKS });
    if (path === "/v1/transfers" && request.method === "POST") {
      const body = (await request.json()) as Record<string, unknown>;
      transferBodies.push(body);
      const reference = String(body.reference);
      if (transfers.has(reference)) return json(400, { message: "Transfer reference has been used before", status: "failed", data: null });
      if (!STAND_IN_BANKS.some((bank) => bank.id === body.bank_code && bank.active))
        return json(400, { message: { bank_code: ["The selected bank code is invalid."] }, status: "failed", data: null });
      transfers.set(reference, {
        account_name: String(body.account_name),
        account_number: String(body.account_number),
        amount: Number(body.amount),
        currency: String(body.currency),
        bank_code: Number(body.bank_code),
        status: "pending",
        tx_ref: reference,
        chapa_transfer_id: crypto.randomUUID(),
      });
      return json(200, { message: "Transfer Queued Successfully", status: "success", data: reference });
    }
    const verifyTransfer = path.match(/^\/v1\/transfers\/verify\/(.+)$/);
    if (verifyTransfer && request.method === "GET") {
      const transfer = transfers.get(decodeURIComponent(verifyTransfer[1]!));
      if (!transfer) return json(404, { message: "Transfer not found", status: "failed", data: null });
      return json(200, {
        message: "Transfer details",
        status: "success",
        data: { ...transfer, mobile: null, charge: 0, mode: "test", transfer_method: "bank", narration: null, bank_name: "Stand-in Bank" },
      });
    }
    return json(404, { message: "Not found", status: "failed", data: null });
  });
  return {
    transactions,
    transfers,
    initializeBodies,
    refundForms,
    transferBodies,
    authorizations,
    settle(txRef: string, status: string, changes: Partial<StandInTransaction> = {}) {
      const transaction = transactions.get(txRef);
      if (!transaction) throw new Error(`no stand-in transaction ${txRef}`);
      transactions.set(txRef, { ...transaction, ...changes, status });
    },
    settleTransfer(reference: string, status: string, changes: Partial<StandInTransfer> = {}) {
      const transfer = transfers.get(reference);
      if (!transfer) throw new Error(`no stand-in transfer ${reference}`);
      transfers.set(reference, { ...transfer, ...changes, status });
    },
  };
}

/** A webhook body as Chapa posts it, with its signature headers. */
export async function chapaWebhook(secret: string, fields: Record<string, unknown>) {
  const body = JSON.stringify({ event: "charge.success", status: "success", currency: "ETB", ...fields });
  return { body, signature: await signWebhookBody(secret, body), staticSignature: await signWebhookBody(secret, secret) };
}
