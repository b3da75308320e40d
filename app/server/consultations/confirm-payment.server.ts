// A payment the provider confirms: the webhook and the patient's return page both come here, in any
// order and any number of times (Chapa retries its webhook for 72 hours). Nothing changes until the
// provider itself, asked with verify, shows the transaction succeeded for the amount, currency and
// tx_ref we recorded. Then the consultation moves to `in_progress` once, with the payment marked paid in
// the same batch; a payment that comes after its window closed (or after another payment already
// started the consultation) is kept and flagged for an admin to refund, never dropped. A provider record
// that disagrees with ours, or a status that is neither success, failure nor a wait (refunded,
// reversed, one we do not know), is kept with the payment and flagged for an admin too.
import { and, gt, lte, not } from "drizzle-orm";

import { consultations } from "~/db/schema";
import type { LateReason } from "~/domain/late-payments";
import { createDatabase, type Database } from "~/server/db/client.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { latePaymentsOf, markPaymentFailed, paidBy, paidOfMove, paymentByTxRef, type PaymentRow } from "~/server/db/payments.server";
import type { AppConfig } from "~/server/env.server";
import { captureOfMove } from "~/server/money/escrow.server";
import { refundLatePayment } from "~/server/money/refunds.server";
import { flagPaymentForReview, markPaymentLate } from "~/server/payments/flagged-payments.server";
import { paymentProvider } from "~/server/payments/provider.server";
import { paymentConfirmed } from "~/server/rooms.server";
import { deliverTidings, NOTHING_OUTGOING, type Outgoing, tidingsStatements } from "~/server/tidings.server";

import { expirePayment } from "./expire-payment.server";
import { auditOfMove, moveConsultation, onlyIfMoved } from "./move.server";
import { latePaymentTidings, paidTidings } from "./tell-patient.server";

export type ConfirmationOutcome =
  /** This call started the consultation (and told both people, in the same batch: `outgoing` to deliver). */
  | { kind: "confirmed"; payment: PaymentRow; outgoing: Outgoing }
  /** An earlier call already did (a repeated webhook, or the return page after the webhook). */
  | { kind: "already_confirmed"; payment: PaymentRow }
  /** Paid, but too late to start the consultation (its window had closed, or another payment started it): recorded for a refund. */
  | { kind: "late"; payment: PaymentRow; reason: LateReason; firstTold: boolean }
  /** The provider says it did not succeed (or not yet). */
  | { kind: "not_paid"; payment: PaymentRow; status: "failed" | "pending" }
  /** No payment of ours has this tx_ref. */
  | { kind: "unknown" }
  /** The provider's record does not match ours (amount, currency, reference): flagged for an admin. */
  | { kind: "mismatch"; payment: PaymentRow }
  /** The provider says refunded, reversed, or a status we do not know: flagged for an admin. */
  | { kind: "flagged"; payment: PaymentRow; status: "refunded" | "reversed" | "unknown" }
  /** The provider could not be asked, or knows no such transaction (yet): asked again later. */
  | { kind: "unverified"; payment: PaymentRow };

export async function confirmPayment(env: Env, config: AppConfig, origin: string, txRef: string, now: Date): Promise<ConfirmationOutcome> {
  const db = createDatabase(env.DB);
  const payment = await paymentByTxRef(db, txRef);
  if (!payment) return { kind: "unknown" };
  if (payment.status === "paid") return { kind: "already_confirmed", payment };
  if (payment.status === "paid_after_expiry") return { kind: "late", payment, reason: await reasonOf(db, payment), firstTold: false };

  const provider = paymentProvider(config, env, origin);
  const verified = provider.name === payment.provider ? await provider.verify(txRef) : null;
  if (!verified) return { kind: "unverified", payment };
  const answer = {
    status: verified.providerStatus,
    amount: Number.isFinite(verified.amountSantim) ? verified.amountSantim : null,
    currency: verified.currency,
    txRef: verified.txRef,
  };
  const matches =
    verified.txRef === payment.txRef && verified.amountSantim === payment.amountSantim && verified.currency === payment.currency;
  if (!matches) {
    await flagPaymentForReview(db, txRef, "provider_disagrees", answer, now);
    return { kind: "mismatch", payment };
  }
  if (verified.status === "refunded" || verified.status === "reversed" || verified.status === "unknown") {
    await flagPaymentForReview(db, txRef, "provider_status", answer, now);
    return { kind: "flagged", payment, status: verified.status };
  }
  if (verified.status !== "success") {
    if (verified.status === "failed") await markPaymentFailed(db, txRef, now);
    return { kind: "not_paid", payment, status: verified.status };
  }

  // A window that has closed is closed first (should its alarm be late), so that lateness is decided once.
  await expirePayment(env, payment.consultationId, now);
  const consultation = await findConsultationById(db, payment.consultationId);
  let outgoing = NOTHING_OUTGOING;
  const outcome = await moveConsultation(db, {
    consultationId: payment.consultationId,
    move: "confirmPayment",
    actor: { kind: "system" },
    now,
    // Paid within this window, for this acceptance: an attempt begun before the current doctor accepted
    // belongs to an earlier window and is late, even if the request has been accepted again since.
    onlyIf: and(gt(consultations.paymentDeadlineAt, now), lte(consultations.acceptedAt, payment.createdAt)),
    alsoWrite: (db, moved) => {
      const told = tidingsStatements(db, consultation ? paidTidings(consultation) : [], now, onlyIfMoved(moved));
      outgoing = told;
      return [
        paidOfMove(db, moved, payment.id, verified.reference, now),
        auditOfMove(db, moved, { actorId: null, action: "consultation.paid", ipAddress: null, now }),
        ...captureOfMove(db, moved, captureOf(payment, verified.chargeSantim), now),
        ...told.statements,
      ];
    },
  });
  if (outcome.ok) {
    await paymentConfirmed(env, payment.consultationId);
    return { kind: "confirmed", payment: { ...payment, status: "paid", paidAt: now }, outgoing };
  }
  // Either a concurrent call just confirmed this very payment, or it came too late.
  const after = (await paymentByTxRef(db, txRef)) ?? payment;
  if (after.status === "paid") return { kind: "already_confirmed", payment: after };
  // The patient is told in the words of the reason that holds as it is marked, in the same batch.
  const lateTidings = await latePaymentTidings(db, payment, origin);
  let lateOutgoing = NOTHING_OUTGOING;
  const firstTold = await markPaymentLate(db, captureOf(payment, verified.chargeSantim), verified.reference, now, (flagged) => {
    const alreadyPaid = paidBy(payment.consultationId, now);
    const told = [
      tidingsStatements(db, [lateTidings.already_paid], now, and(flagged, alreadyPaid)!),
      tidingsStatements(db, [lateTidings.window_closed], now, and(flagged, not(alreadyPaid))!),
    ];
    lateOutgoing = { mailIds: told.flatMap((one) => one.mailIds), userIds: told.flatMap((one) => one.userIds) };
    return told.flatMap((one) => one.statements);
  });
  const late = (await paymentByTxRef(db, txRef)) ?? after;
  const reason = await reasonOf(db, late);
  if (firstTold) {
    // Told before the refund's own news, which its settling may send at once.
    await deliverTidings(db, config, lateOutgoing);
    // Given back through the provider at once (the job sweeps for any this misses).
    await refundLatePayment(env, config, late.id, reason === "already_paid" ? "duplicate_payment" : "late_payment", now);
  }
  return { kind: "late", payment: late, reason, firstTold };
}

const captureOf = (payment: PaymentRow, chargeSantim: number) => ({
  paymentId: payment.id,
  txRef: payment.txRef,
  consultationId: payment.consultationId,
  amountSantim: payment.amountSantim,
  chargeSantim,
});

async function reasonOf(db: Database, payment: PaymentRow): Promise<LateReason> {
  return (await latePaymentsOf(db, payment.consultationId)).find((late) => late.txRef === payment.txRef)?.reason ?? "window_closed";
}
