// Chapa (production): initialize a transaction and send the patient to its hosted checkout; read a
// transaction back with verify; give a payment back (refund); send money to a bank account or wallet
// (transfer), list where it can go, and read a transfer back. Chapa's JSON is read with the schemas in
// chapa-answers.server.ts; the Workers tests run this very code against a stand-in in the same formats.
//
// The wire formats, and where each was found (developer.chapa.co and Chapa's Node SDK,
// github.com/fireayehu/chapa-nodejs `src/interfaces/*.ts`); where the sources disagree or say nothing,
// the choice made here:
// - Refund: `POST /v1/refund/{tx_ref}`, form-encoded (developer.chapa.co/refund; the SDK sends a form
//   too). Body: `reason`, `amount` (decimal birr; without it Chapa refunds the whole payment),
//   `reference` (ours, unique per business), `meta` (returned in the answer and the webhook). An older
//   page says Chapa refunds only whole payments: we always send the amount, so a partial refund is
//   either refused or done as asked, never widened to the whole. The SDK types the answer only as
//   `{ message, status, data: Record<string, unknown> }`: accepted is `status: "success"`; Chapa's own
//   reference is read from `data.chapa_reference` when present, else null.
// - Refund verify: Chapa documents none. A refund is read from the transaction verify: `refunded` (or
//   `reversed` by the bank) is given back, `success` is still waiting, so a refused, lost or partial
//   refund reads as pending here, and only the webhook or an admin settles it.
// - Banks: `GET /v1/banks` answers `{ message, data: [{ id, slug, swift, name, acct_length, is_mobilemoney,
//   is_active, active, currency, … }] }` (Chapa's docs, and the SDK's GetBanksResponse, which has no
//   is_active). `id` is the transfer's `bank_code`; flags are 1/0/null in the docs, booleans in the SDK.
// - Transfer: `POST /v1/transfers`, JSON (developer.chapa.co/transfer/transfers): `account_name`,
//   `account_number`, `amount` (decimal birr), `currency` ("ETB"), `reference` (ours), `bank_code` (a
//   number). The SDK types the answer as `{ message, status, data: string }`; the docs' example puts our
//   reference there. Transfers are refused outside Chapa's transfer hours (Mon–Sat 08:30–16:30).
// - Transfer verify: `GET /v1/transfers/verify/{reference}` answers `{ message: "Transfer details", status,
//   data: { amount (a number), status, tx_ref (our reference), chapa_transfer_id, bank_code, … } }`. No
//   failure field is documented; the name Chapa's transaction webhooks use, `failure_reason`, is read.
// - Status words: success, pending, failed; Chapa's payout events write "failed/cancelled", so
//   `cancelled` is a failed transfer. Any other word is `unknown`.
import { birrDecimal } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import {
  AcceptedAnswer,
  BanksAnswer,
  ChapaFailure,
  ChapaRefusal,
  InitializeAnswer,
  providerReferenceOf,
  refundStatusOfTransaction,
  transferStatusOf,
  VerifyAnswer,
  VerifyTransferAnswer,
} from "./chapa-answers.server";
import {
  assertPositiveSantim,
  type Checkout,
  type InitializeOutcome,
  type PaymentProvider,
  providerStatusOf,
  type RefundOutcome,
  type VerifiedTransaction,
} from "./payment-provider.server";

const REQUEST_TIMEOUT_MS = 10_000;
/** Chapa shows this on its checkout page; it allows 16 characters. */
const CHECKOUT_TITLE = "Qoda consult";

/** What came back from one call: Chapa's status code and body, or why nothing came. */
type Reply = { reached: true; status: number; ok: boolean; body: unknown } | { reached: false; message: string };

/** The body as JSON, or undefined when it is not JSON (the schemas then refuse it). */
async function readAnswer(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** An answer that is a decision: a success, or a client error other than "too slow" or "too many". */
const isDefinite = (status: number) =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 408 && status !== 429);

/** Chapa's answer to a refund or a transfer request, as one of our three outcomes. */
function moneyRequestOutcome(reply: Reply, ourReference: string): RefundOutcome {
  if (!reply.reached) return { kind: "unreachable", message: reply.message };
  const accepted = AcceptedAnswer.safeParse(reply.body);
  if (reply.ok && accepted.success) return { kind: "accepted", providerReference: providerReferenceOf(accepted.data.data, ourReference) };
  const refused = ChapaFailure.safeParse(reply.body);
  if (refused.success && isDefinite(reply.status)) return { kind: "refused", message: refused.data.message };
  return { kind: "unreachable", message: `Chapa answered ${reply.status} in a form we cannot read` };
}

/** The Chapa adapter, at `baseUrl` with `secretKey` (the sandbox reuses nothing of this but the formats). */
export function chapaProvider(config: AppConfig): PaymentProvider {
  const baseUrl = config.CHAPA_API_URL.replace(/\/+$/, "");
  const authorization = `Bearer ${config.CHAPA_SECRET_KEY ?? ""}`;
  const headers = { Authorization: authorization, "Content-Type": "application/json" };

  async function ask(path: string, init: RequestInit = {}): Promise<Reply> {
    try {
      const response = await fetch(`${baseUrl}${path}`, { headers, ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      return { reached: true, status: response.status, ok: response.ok, body: await readAnswer(response) };
    } catch (error) {
      return { reached: false, message: `Chapa could not be reached (${String(error)})` };
    }
  }

  async function verify(txRef: string): Promise<VerifiedTransaction | null> {
    const reply = await ask(`/v1/transaction/verify/${encodeURIComponent(txRef)}`);
    if (!reply.reached || !reply.ok) return null;
    const answer = VerifyAnswer.safeParse(reply.body);
    if (!answer.success) return null;
    const { tx_ref, status, amount, charge, currency, reference } = answer.data.data;
    return {
      txRef: tx_ref,
      status: providerStatusOf(status),
      providerStatus: status,
      amountSantim: amount,
      chargeSantim: charge,
      currency,
      reference,
    };
  }

  return {
    name: "chapa",
    webhookSecret: config.CHAPA_WEBHOOK_SECRET ?? "",
    async initialize(checkout: Checkout): Promise<InitializeOutcome> {
      const reply = await ask("/v1/transaction/initialize", {
        method: "POST",
        body: JSON.stringify({
          amount: birrDecimal(checkout.amountSantim),
          currency: "ETB",
          email: checkout.email,
          first_name: checkout.firstName,
          last_name: checkout.lastName,
          tx_ref: checkout.txRef,
          callback_url: checkout.callbackUrl,
          return_url: checkout.returnUrl,
          customization: { title: CHECKOUT_TITLE },
        }),
      });
      if (!reply.reached) return { ok: false, kind: "failed", message: reply.message };
      const initialized = InitializeAnswer.safeParse(reply.body);
      if (reply.ok && initialized.success) return { ok: true, checkoutUrl: initialized.data.data.checkout_url };
      const { message } = ChapaRefusal.parse(reply.body);
      if (/reference has been used before/i.test(message)) return { ok: false, kind: "reference_used" };
      return { ok: false, kind: "failed", message: message || `Chapa answered ${reply.status}` };
    },
    verify,
    async refund({ txRef, reference, amountSantim, reason }) {
      assertPositiveSantim(amountSantim);
      const form = new URLSearchParams({ reason, amount: birrDecimal(amountSantim), reference, "meta[reference]": reference });
      const reply = await ask(`/v1/refund/${encodeURIComponent(txRef)}`, {
        method: "POST",
        headers: { Authorization: authorization, "Content-Type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      });
      return moneyRequestOutcome(reply, reference);
    },
    async verifyRefund({ txRef }) {
      // Derived from the transaction (see the top of this file): the refund's own reference is not asked.
      const transaction = await verify(txRef);
      if (!transaction) return null;
      return { status: refundStatusOfTransaction(transaction.status), providerStatus: transaction.providerStatus, amountSantim: null };
    },
    async banks() {
      const reply = await ask("/v1/banks");
      if (!reply.reached || !reply.ok) return null;
      const answer = BanksAnswer.safeParse(reply.body);
      return answer.success ? answer.data : null;
    },
    async transfer({ reference, amountSantim, bankCode, accountName, accountNumber }) {
      assertPositiveSantim(amountSantim);
      if (!/^\d{1,9}$/.test(bankCode)) return { kind: "refused", message: `Not a Chapa bank code: ${bankCode}` };
      const reply = await ask("/v1/transfers", {
        method: "POST",
        body: JSON.stringify({
          account_name: accountName,
          account_number: accountNumber,
          amount: birrDecimal(amountSantim),
          currency: "ETB",
          reference,
          bank_code: Number(bankCode),
        }),
      });
      return moneyRequestOutcome(reply, reference);
    },
    async verifyTransfer(reference) {
      const reply = await ask(`/v1/transfers/verify/${encodeURIComponent(reference)}`);
      if (!reply.reached || !reply.ok) return null;
      const answer = VerifyTransferAnswer.safeParse(reply.body);
      // An answer about another transfer is not an answer about this one.
      if (!answer.success || (answer.data.data.tx_ref !== undefined && answer.data.data.tx_ref !== reference)) return null;
      const { status, amount, failure_reason } = answer.data.data;
      return { status: transferStatusOf(status), providerStatus: status, amountSantim: amount, failureReason: failure_reason ?? null };
    },
  };
}
