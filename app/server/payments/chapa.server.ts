// Chapa (production): initialize a transaction and send the patient to its hosted checkout; read a
// transaction back with verify. Both speak Chapa's documented JSON (developer.chapa.co); the Workers
// tests run this very code against a stand-in that answers in the same format.
import type { AppConfig } from "~/server/env.server";

import type { Checkout, InitializeOutcome, PaymentProvider, VerifiedTransaction } from "./payment-provider.server";

const REQUEST_TIMEOUT_MS = 10_000;
/** Chapa shows this on its checkout page; it allows 16 characters. */
const CHECKOUT_TITLE = "Qoda consult";

interface ChapaAnswer {
  status?: unknown;
  message?: unknown;
  data?: Record<string, unknown> | null;
}

async function readAnswer(response: Response): Promise<ChapaAnswer> {
  try {
    const body: unknown = await response.json();
    return body && typeof body === "object" ? (body as ChapaAnswer) : {};
  } catch {
    return {};
  }
}

/** Chapa's message may be a string or an object of field errors. */
function messageOf(answer: ChapaAnswer): string {
  if (typeof answer.message === "string") return answer.message;
  if (answer.message && typeof answer.message === "object") return Object.values(answer.message).flat().join(" ");
  return "";
}

const TRANSACTION_STATUSES = ["success", "failed", "pending"] as const;

/** Reads a verify answer's `data` in Chapa's format; anything else is no transaction. */
function transactionOf(data: Record<string, unknown> | null | undefined): VerifiedTransaction | null {
  if (!data || typeof data.tx_ref !== "string") return null;
  const status = TRANSACTION_STATUSES.find((known) => known === data.status) ?? "pending";
  const amount = Number(data.amount);
  return {
    txRef: data.tx_ref,
    status,
    amountEtb: Number.isFinite(amount) ? amount : Number.NaN,
    currency: typeof data.currency === "string" ? data.currency : "",
    reference: typeof data.reference === "string" ? data.reference : null,
  };
}

/** The Chapa adapter, at `baseUrl` with `secretKey` (the sandbox reuses nothing of this but the formats). */
export function chapaProvider(config: AppConfig): PaymentProvider {
  const baseUrl = config.CHAPA_API_URL.replace(/\/+$/, "");
  const headers = { Authorization: `Bearer ${config.CHAPA_SECRET_KEY ?? ""}`, "Content-Type": "application/json" };
  return {
    name: "chapa",
    webhookSecret: config.CHAPA_WEBHOOK_SECRET ?? "",
    async initialize(checkout: Checkout): Promise<InitializeOutcome> {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}/v1/transaction/initialize`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            amount: String(checkout.amountEtb),
            currency: "ETB",
            email: checkout.email,
            first_name: checkout.firstName,
            last_name: checkout.lastName,
            tx_ref: checkout.txRef,
            callback_url: checkout.callbackUrl,
            return_url: checkout.returnUrl,
            customization: { title: CHECKOUT_TITLE },
          }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        return { ok: false, kind: "failed", message: `Chapa could not be reached (${String(error)})` };
      }
      const answer = await readAnswer(response);
      const checkoutUrl = answer.data?.checkout_url;
      if (response.ok && answer.status === "success" && typeof checkoutUrl === "string" && checkoutUrl.startsWith("https://"))
        return { ok: true, checkoutUrl };
      const message = messageOf(answer);
      if (/reference has been used before/i.test(message)) return { ok: false, kind: "reference_used" };
      return { ok: false, kind: "failed", message: message || `Chapa answered ${response.status}` };
    },
    async verify(txRef: string): Promise<VerifiedTransaction | null> {
      try {
        const response = await fetch(`${baseUrl}/v1/transaction/verify/${encodeURIComponent(txRef)}`, {
          headers,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        if (!response.ok) return null;
        const answer = await readAnswer(response);
        return answer.status === "success" ? transactionOf(answer.data) : null;
      } catch {
        return null;
      }
    },
  };
}
