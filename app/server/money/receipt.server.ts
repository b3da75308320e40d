// A patient's receipt for one payment: what they paid, when, under which references, for which
// consultation, and where the money is now, worded on the server in their language (the state's words
// are the consultation page's own, from escrow-view). Only the patient who paid sees it, only once paid.
import type { TFunction } from "i18next";

import { formatConsultationId } from "~/domain/constants";
import { formatDocumentDay, formatDocumentMoment } from "~/domain/dates";
import { birrText } from "~/domain/money";
import type { Database } from "~/server/db/client.server";
import { latePaymentsOf, paidPaymentOfPatient } from "~/server/db/payments.server";
import { profileName } from "~/server/db/profiles.server";

import { escrowOf } from "./escrow.server";
import { latePaymentNotice, patientMoneyLine, type PatientMoneyState, patientMoneyState } from "./escrow-view.server";

type StateLabel =
  "held" | "disputed" | "inReview" | "chargedBack" | "released" | "refunding" | "refunded" | "partRefunding" | "partRefunded";

/** The short word for where the money is (a refund of less than the whole is a part refund). */
function labelOf(state: PatientMoneyState): StateLabel {
  if (state.kind === "in_review") return "inReview";
  if (state.kind === "charged_back") return "chargedBack";
  if (state.kind === "refunding" || state.kind === "refunded") {
    const part = state.refundSantim < state.amountSantim;
    if (state.kind === "refunding") return part ? "partRefunding" : "refunding";
    return part ? "partRefunded" : "refunded";
  }
  return state.kind;
}

/** The receipt of `paymentId` as its patient reads it; null when it is not theirs or not paid. */
export async function patientReceipt(db: Database, t: TFunction, language: string, patientId: string, paymentId: string) {
  const found = await paidPaymentOfPatient(db, patientId, paymentId);
  if (!found) return null;
  const { payment, consultation } = found;
  const paidAt = payment.paidAt ?? payment.updatedAt;
  return {
    amount: birrText(payment.amountSantim),
    paidAt: { iso: paidAt.toISOString(), text: formatDocumentMoment(paidAt, language) },
    txRef: payment.txRef,
    providerReference: payment.providerReference,
    consultation: {
      id: consultation.id,
      shortId: formatConsultationId(consultation.id),
      requestedOn: formatDocumentDay(consultation.createdAt, language),
    },
    state: await stateOf(db, t, language, payment, consultation),
  };
}

type Found = NonNullable<Awaited<ReturnType<typeof paidPaymentOfPatient>>>;

/** Where this payment's money is: the escrow it started, or, for one that came too late, its refund. */
async function stateOf(db: Database, t: TFunction, language: string, payment: Found["payment"], consultation: Found["consultation"]) {
  if (payment.status === "paid_after_expiry") {
    const late = (await latePaymentsOf(db, consultation.id)).find((row) => row.id === payment.id);
    if (!late) return null;
    return { label: t(`receipt.states.${late.refundedAt ? "refunded" : "refunding"}`), line: latePaymentNotice(t, language, late) };
  }
  const escrow = await escrowOf(db, consultation.id);
  // A paid payment's escrow is the one it started; any other is not about this payment.
  if (!escrow || escrow.paymentId !== payment.id) return null;
  const completedAt = consultation.status === "completed" ? consultation.completedAt : null;
  const [state, doctor] = await Promise.all([patientMoneyState(db, escrow, completedAt), profileName(db, escrow.doctorId)]);
  return { label: t(`receipt.states.${labelOf(state)}`), line: patientMoneyLine(t, language, state, doctor?.firstName ?? "") };
}
