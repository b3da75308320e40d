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
//   `cancelled` is a failed transfer. Any other word (`queued`, `processing`, …) is `unknown`: asked
//   again, then put before an admin, never read as success or failure.
// - A second refund or transfer under a reference Chapa already has is refused as "… reference has been
//   used before" (as initialize words it): that refusal means the first was taken, and is read as such.
//   An answer to a transfer verify that is a definite client error (a 4xx other than 408/429, e.g. 404
//   "Transfer not found") in Chapa's refusal format says Chapa has no transfer under that reference:
//   nothing was taken. Anything else it cannot read says nothing.
// - Balances: `GET /v1/balances` answers `{ status, data: [{ currency, available_balance, ledger_balance }] }`
//   (developer.chapa.co/transfer/balance). Transactions: `GET /v1/transactions` answers `{ data: {
//   transactions: [{ status, ref_id, amount, charge, created_at, … }], pagination: { next_page_url } } }`
//   (the SDK's GetTransactionsResponse; our tx_ref is read when present). Transfers: `GET /v1/transfers`
//   answers `{ data: [{ reference, amount, charge, status, created_at, … }], meta: { next_page_url } }`.
//   Pages are followed (at most MAX_LIST_PAGES) until an entry older than the period is seen.
import { birrDecimal } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import {
  AcceptedAnswer,
  BalancesAnswer,
  BanksAnswer,
  ChapaFailure,
  ChapaRefusal,
  InitializeAnswer,
  providerReferenceOf,
  refundStatusOfTransaction,
  TransactionsAnswer,
  TransfersAnswer,
  transferStatusOf,
  VerifyAnswer,
  VerifyTransferAnswer,
} from "./chapa-answers.server";
import {
  assertPositiveSantim,
  type Checkout,
  type InitializeOutcome,
  type ListedTransaction,
  type ListedTransfer,
  type PaymentProvider,
  providerStatusOf,
  type RefundOutcome,
  type VerifiedTransaction,
} from "./payment-provider.server";

const REQUEST_TIMEOUT_MS = 10_000;
/** Pages of a list read in one go: a day's movements fit many times over; past this the run says it stopped. */
const MAX_LIST_PAGES = 50;
const REFERENCE_USED = /reference has been used before/i;
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

/** Chapa's answer to a refund or a transfer request, as one of our outcomes. */
function moneyRequestOutcome(reply: Reply, ourReference: string): RefundOutcome {
  if (!reply.reached) return { kind: "unreachable", message: reply.message };
  const accepted = AcceptedAnswer.safeParse(reply.body);
  if (reply.ok && accepted.success) return { kind: "accepted", providerReference: providerReferenceOf(accepted.data.data, ourReference) };
  const refused = ChapaFailure.safeParse(reply.body);
  if (refused.success && isDefinite(reply.status))
    return REFERENCE_USED.test(refused.data.message) ? { kind: "reference_used" } : { kind: "refused", message: refused.data.message };
  return { kind: "unreachable", message: `Chapa answered ${reply.status} in a form we cannot read` };
}

/** Where and how the adapter reaches Chapa: the real API, or the local sandbox that speaks its formats. */
export interface ChapaWire {
  name: PaymentProvider["name"];
  baseUrl: string;
  secretKey: string;
  webhookSecret: string;
  fetch: typeof fetch;
  /** A checkout on our own site (the sandbox's), which in development is plain http; any other must be https. */
  ownCheckoutOrigin?: string;
}

const chapaItself = (config: AppConfig): ChapaWire => ({
  name: "chapa",
  baseUrl: config.CHAPA_API_URL,
  secretKey: config.CHAPA_SECRET_KEY ?? "",
  webhookSecret: config.CHAPA_WEBHOOK_SECRET ?? "",
  // Looked up at each call (not bound once), so a test's stand-in for fetch is the one used.
  fetch: (input, init) => fetch(input, init),
});

/** The Chapa adapter: Chapa itself (from the configuration), or whatever `wire` says speaks its formats. */
export function chapaProvider(config: AppConfig, wire: ChapaWire = chapaItself(config)): PaymentProvider {
  const baseUrl = wire.baseUrl.replace(/\/+$/, "");
  const authorization = `Bearer ${wire.secretKey}`;
  const headers = { Authorization: authorization, "Content-Type": "application/json" };

  async function ask(path: string, init: RequestInit = {}): Promise<Reply> {
    try {
      const url = path.startsWith("https://") || path.startsWith("http://") ? path : `${baseUrl}${path}`;
      const response = await wire.fetch(url, { headers, ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      return { reached: true, status: response.status, ok: response.ok, body: await readAnswer(response) };
    } catch (error) {
      return { reached: false, message: `Chapa could not be reached (${String(error)})` };
    }
  }

  /** Every page of a list from `path` whose entries are at or after `since` (newest first), or null when a page cannot be read. */
  async function listSince<Entry extends { createdAt: Date | null }>(
    path: string,
    read: (body: unknown) => { entries: Entry[]; nextPage: string | null } | null,
    since: Date,
  ): Promise<Entry[] | null> {
    const entries: Entry[] = [];
    let next: string | null = path;
    for (let page = 0; next && page < MAX_LIST_PAGES; page += 1) {
      // A next page on another host is not Chapa's: not followed.
      if (/^https?:\/\//.test(next) && !next.startsWith(baseUrl)) return null;
      const reply = await ask(next);
      if (!reply.reached || !reply.ok) return null;
      const answer = read(reply.body);
      if (!answer) return null;
      entries.push(...answer.entries.filter((entry) => !entry.createdAt || entry.createdAt >= since));
      if (answer.entries.some((entry) => entry.createdAt && entry.createdAt < since)) break;
      next = answer.nextPage;
    }
    return entries;
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
    name: wire.name,
    webhookSecret: wire.webhookSecret,
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
      const checkoutUrl = initialized.success ? initialized.data.data.checkout_url : "";
      const safeCheckout =
        checkoutUrl.startsWith("https://") || (!!wire.ownCheckoutOrigin && checkoutUrl.startsWith(`${wire.ownCheckoutOrigin}/`));
      if (reply.ok && safeCheckout) return { ok: true, checkoutUrl };
      const { message } = ChapaRefusal.parse(reply.body);
      if (REFERENCE_USED.test(message)) return { ok: false, kind: "reference_used" };
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
      if (!reply.reached) return null;
      if (!reply.ok) {
        // Only Chapa's own refusal, in its format, says it has no such transfer; a proxy's page says nothing.
        const refusal = ChapaFailure.safeParse(reply.body);
        if (!isDefinite(reply.status) || !refusal.success) return null;
        return { status: "not_found", providerStatus: refusal.data.message, amountSantim: null, feeSantim: null, failureReason: null };
      }
      const answer = VerifyTransferAnswer.safeParse(reply.body);
      // An answer about another transfer is not an answer about this one.
      if (!answer.success || (answer.data.data.tx_ref !== undefined && answer.data.data.tx_ref !== reference)) return null;
      const { status, amount, charge, failure_reason } = answer.data.data;
      return {
        status: transferStatusOf(status),
        providerStatus: status,
        amountSantim: amount,
        feeSantim: charge,
        failureReason: failure_reason ?? null,
      };
    },
    async balance() {
      const reply = await ask("/v1/balances");
      if (!reply.reached || !reply.ok) return null;
      const answer = BalancesAnswer.safeParse(reply.body);
      return answer.success ? answer.data : null;
    },
    transactions: (since) =>
      listSince<ListedTransaction>(
        "/v1/transactions",
        (body) => {
          const answer = TransactionsAnswer.safeParse(body);
          return answer.success ? { entries: answer.data.transactions, nextPage: answer.data.nextPage } : null;
        },
        since,
      ),
    transfers: (since) =>
      listSince<ListedTransfer>(
        "/v1/transfers",
        (body) => {
          const answer = TransfersAnswer.safeParse(body);
          return answer.success ? { entries: answer.data.transfers, nextPage: answer.data.nextPage } : null;
        },
        since,
      ),
  };
}
