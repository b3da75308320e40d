// Chapa (production): initialize a transaction and send the patient to its hosted checkout; read a
// transaction back with verify. Both speak Chapa's documented JSON (developer.chapa.co); the Workers
// tests run this very code against a stand-in that answers in the same format.
import { z } from "zod";

import { birrDecimal, santimFromBirr } from "~/domain/money";
import type { AppConfig } from "~/server/env.server";

import {
  type Checkout,
  type InitializeOutcome,
  type PaymentProvider,
  providerStatusOf,
  type VerifiedTransaction,
} from "./payment-provider.server";

const REQUEST_TIMEOUT_MS = 10_000;
/** Chapa shows this on its checkout page; it allows 16 characters. */
const CHECKOUT_TITLE = "Qoda consult";

/** Chapa's message may be a sentence or an object of field errors; anything else says nothing. */
const ChapaMessage = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .optional()
  .catch(undefined)
  .transform((message) => (typeof message === "object" ? Object.values(message).flat().join(" ") : (message ?? "")));

/** Any answer, read only for its message (a refusal, or an answer we could not use). */
const ChapaRefusal = z.object({ message: ChapaMessage }).catch({ message: "" });

/** An initialize answer that gives a checkout page to send the patient to. */
const InitializeAnswer = z.object({
  status: z.literal("success"),
  data: z.object({ checkout_url: z.string().startsWith("https://") }),
});

/** A verify answer in Chapa's format; a status we do not know is `unknown` (for an admin), never read as another. */
const VerifyAnswer = z.object({
  status: z.literal("success"),
  data: z.object({
    tx_ref: z.string(),
    status: z.string().catch(""),
    amount: z.unknown().transform((amount) => santimFromBirr(amount) ?? Number.NaN),
    currency: z.string().catch(""),
    charge: z
      .unknown()
      .optional()
      .transform((charge) => santimFromBirr(charge ?? 0) ?? 0),
    reference: z.string().nullable().catch(null),
  }),
});

/** The body as JSON, or undefined when it is not JSON (the schemas then refuse it). */
async function readAnswer(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
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
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        return { ok: false, kind: "failed", message: `Chapa could not be reached (${String(error)})` };
      }
      const answer = await readAnswer(response);
      const initialized = InitializeAnswer.safeParse(answer);
      if (response.ok && initialized.success) return { ok: true, checkoutUrl: initialized.data.data.checkout_url };
      const { message } = ChapaRefusal.parse(answer);
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
        const answer = VerifyAnswer.safeParse(await readAnswer(response));
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
      } catch {
        return null;
      }
    },
  };
}
