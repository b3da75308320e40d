// The patient's Pay: a payment is recorded with a fresh tx_ref before the provider is called (so nothing
// the provider later confirms is unknown to us), then the provider gives the checkout to send them to.
// The page hands out the tx_ref with the form, so the same form sent twice (a double click, a retry after
// a timeout) is one payment: the provider answers "used before" and the checkout URL stored by the first
// send is the one to follow. Another tab's form (its own tx_ref) goes to the checkout already open for
// this acceptance, so two tabs cannot both be paid (each payment would lose the provider's fee).
import { CONSULTATION_FEE_SANTIM } from "~/domain/money";
import type { ConsultationRow } from "~/server/consultations/move.server";
import type { Database } from "~/server/db/client.server";
import { markPaymentFailed, openAttemptSince, paymentByTxRef, recordPaymentAttempt, saveCheckoutUrl } from "~/server/db/payments.server";
import { contactOf, profileName } from "~/server/db/profiles.server";

import type { PaymentProvider } from "./payment-provider.server";

export type StartPaymentOutcome =
  | { ok: true; checkoutUrl: string }
  | { ok: false; reason: "invalid_request" | "already_paid" }
  | { ok: false; reason: "provider_failed"; message: string };

/** Our reference for one attempt: unique, and within Chapa's characters and length. */
export const newTxRef = () => `qoda-${crypto.randomUUID()}`;
const TX_REF_PATTERN = /^qoda-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isTxRef = (value: unknown): value is string => typeof value === "string" && TX_REF_PATTERN.test(value);

export async function startPayment(
  db: Database,
  provider: PaymentProvider,
  consultation: ConsultationRow,
  /** The tx_ref the payment page handed out with its form. */
  formTxRef: string,
  links: { callbackUrl: string; returnUrlOf: (txRef: string) => string },
  now: Date,
): Promise<StartPaymentOutcome> {
  if (consultation.status === "in_progress" || consultation.status === "completed") return { ok: false, reason: "already_paid" };
  const open =
    consultation.status === "accepted_awaiting_payment" && consultation.paymentDeadlineAt && consultation.paymentDeadlineAt > now;
  if (!open) return { ok: false, reason: "invalid_request" };
  const [contact, name] = await Promise.all([contactOf(db, consultation.patientId), profileName(db, consultation.patientId)]);
  if (!contact) return { ok: false, reason: "invalid_request" };

  const sent = await paymentByTxRef(db, formTxRef);
  if (sent && (sent.consultationId !== consultation.id || sent.patientId !== consultation.patientId || sent.provider !== provider.name))
    return { ok: false, reason: "invalid_request" };
  if (sent?.status === "paid" || sent?.status === "paid_after_expiry") return { ok: false, reason: "already_paid" };
  // A form that would begin a new attempt (its own, or one after a failure) follows one already open.
  if ((!sent || sent.status === "failed") && consultation.acceptedAt) {
    const openAttempt = await openAttemptSince(db, consultation.id, provider.name, consultation.acceptedAt);
    if (openAttempt?.checkoutUrl) return { ok: true, checkoutUrl: openAttempt.checkoutUrl };
  }
  // After a failed attempt, Pay again is a new attempt with a reference of its own.
  const txRef = sent?.status === "failed" ? newTxRef() : formTxRef;
  if (!sent || txRef !== formTxRef)
    await recordPaymentAttempt(db, {
      consultationId: consultation.id,
      patientId: consultation.patientId,
      txRef,
      provider: provider.name,
      amountSantim: CONSULTATION_FEE_SANTIM,
      now,
    });
  const outcome = await provider.initialize({
    txRef,
    amountSantim: CONSULTATION_FEE_SANTIM,
    email: contact.email,
    firstName: name?.firstName || contact.firstName,
    lastName: name?.lastName ?? "",
    callbackUrl: links.callbackUrl,
    returnUrl: links.returnUrlOf(txRef),
  });
  if (outcome.ok) {
    await saveCheckoutUrl(db, txRef, outcome.checkoutUrl, now);
    return { ok: true, checkoutUrl: outcome.checkoutUrl };
  }
  if (outcome.kind === "reference_used") {
    const stored = (await paymentByTxRef(db, txRef))?.checkoutUrl;
    if (stored) return { ok: true, checkoutUrl: stored };
    return { ok: false, reason: "provider_failed", message: "Transaction reference has been used before" };
  }
  await markPaymentFailed(db, txRef, now);
  const message = outcome.message;
  console.error(JSON.stringify({ event: "payment_initialize_failed", txRef, message }));
  return { ok: false, reason: "provider_failed", message };
}
