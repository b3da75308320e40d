// Money in the real D1 for Workers-runtime tests: a consultation paid through the sandbox provider,
// ended by its doctor, and the provider's signed webhooks.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { expect } from "vitest";

import { consultations } from "~/db/schema";
import { ESCROW_RELEASE_HOURS } from "~/domain/constants";
import { CONSULTATION_FEE_SANTIM } from "~/domain/money";
import { insideTransferHours } from "~/domain/payouts";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { recordPaymentAttempt } from "~/server/db/payments.server";
import { loadConfig } from "~/server/env.server";
import { sandboxProvider } from "~/server/payments/sandbox.server";
import { newTxRef } from "~/server/payments/start-payment.server";
import { signWebhookBody } from "~/server/payments/webhook-signature.server";

import { createConsultation, createUser, db, ORIGIN } from "./fixtures";

export const config = () => loadConfig(env);
/** The sandbox's charge: 3.5 % of 150 ETB. */
export const SANDBOX_CHARGE_SANTIM = 525;

/**
 * A payment attempt for `consultationId`, recorded as the app records it; with `paid`, the sandbox says
 * it was paid (its webhook not yet sent). Its tx_ref.
 */
export async function attemptPaidAtProvider(consultationId: string, patientId: string, { paid = true } = {}) {
  const txRef = newTxRef();
  await recordPaymentAttempt(db, {
    consultationId,
    patientId,
    txRef,
    provider: "sandbox",
    amountSantim: CONSULTATION_FEE_SANTIM,
    now: new Date(Date.now() - 30_000),
  });
  if (!paid) return txRef;
  await sandboxProvider(config(), env, ORIGIN).initialize({
    txRef,
    amountSantim: CONSULTATION_FEE_SANTIM,
    email: "patient@qoda.test",
    firstName: "Hana",
    lastName: "T",
    callbackUrl: `${ORIGIN}/payments/webhook`,
    returnUrl: `${ORIGIN}/payments/return/${txRef}`,
  });
  const stored = await env.FILES.get(`payment-sandbox/${txRef}`);
  await env.FILES.put(`payment-sandbox/${txRef}`, JSON.stringify({ ...(await stored!.json<object>()), status: "success" }));
  return txRef;
}

/** A consultation accepted by a doctor, with an attempt (by default one the provider says was paid). */
export async function paidAtProvider({ windowLeftMs = 14 * 60_000, paid = true } = {}) {
  const patientId = await createUser("patient");
  const doctorId = await createUser("doctor");
  const now = Date.now();
  const consultation = await createConsultation(patientId, "accepted_awaiting_payment", {
    doctorId,
    acceptedAt: new Date(now - 60_000),
    paymentDeadlineAt: new Date(now + windowLeftMs),
  });
  const txRef = await attemptPaidAtProvider(consultation.id, patientId, { paid });
  return { patientId, doctorId, consultationId: consultation.id, txRef };
}

export async function paidConsultation() {
  const paid = await paidAtProvider();
  expect((await confirmPayment(env, config(), ORIGIN, paid.txRef, new Date())).kind).toBe("confirmed");
  return paid;
}

/** The doctor ended it `endedAgoMs` ago (the end move's own columns, as the fixtures write rows). */
export async function endedAgo(consultationId: string, endedAgoMs: number) {
  await db
    .update(consultations)
    .set({ status: "completed", completedAt: new Date(Date.now() - endedAgoMs), diagnosis: "Contact dermatitis" })
    .where(eq(consultations.id, consultationId));
}

/** A webhook signed as the provider signs it, posted to our route. */
export async function signedWebhook(payload: Record<string, unknown>) {
  const secret = sandboxProvider(config(), env, ORIGIN).webhookSecret;
  const body = JSON.stringify(payload);
  return SELF.fetch(`${ORIGIN}/payments/webhook`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "x-chapa-signature": await signWebhookBody(secret, body) },
  });
}

/** The first moment from now on inside the provider's transfer hours: the scheduled payout run sends only then. */
export function duringTransferHours(from = new Date()): Date {
  let at = from.getTime();
  while (!insideTransferHours(new Date(at))) at += 15 * 60_000;
  return new Date(at);
}

/** The escrow's hold after the end (the domain's rule is in app/domain/escrow.ts; its constant in constants.ts). */
export const ESCROW_RELEASE_AFTER_MS = ESCROW_RELEASE_HOURS * 60 * 60_000;
