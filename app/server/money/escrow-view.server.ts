// What each side reads about a consultation's money, worded on the server in the reader's language
// (the pages ship none of these texts): where the payment is and when it goes to the doctor (on the
// consultation's pages and on the payment's receipt), the patient's "complete" and dispute forms while
// they may use them, and a dispute's course and outcome.
import type { TFunction } from "i18next";

import { DISPUTE_WINDOW_HOURS } from "~/domain/constants";
import { formatDay, formatMoment } from "~/domain/dates";
import { DISPUTE_INTENTS, DISPUTE_REASONS } from "~/domain/disputes";
import { DISPUTE_WINDOW_MS, releaseDueAt } from "~/domain/escrow";
import type { LateReason } from "~/domain/late-payments";
import { birrText } from "~/domain/money";
import type { WordedPanelProps } from "~/domain/views/panel-words";
import type { ConsultationRow } from "~/server/consultations/move.server";
import type { Database } from "~/server/db/client.server";

import { disputeOf, type DisputeRow } from "./disputes.server";
import { escrowOf } from "./escrow.server";
import { refundOfPayment } from "./refunds.server";

export const CONFIRM_COMPLETE_INTENT = "confirm-complete";

type Consultation = Pick<ConsultationRow, "id" | "status" | "completedAt">;
/** What a dispute form sent back with its errors, to show again. */
export interface DisputeFormState {
  values: Record<string, string>;
  errors: Record<string, string>;
}

/** The dispute's course, as either side reads it. */
function disputeLines(
  t: TFunction,
  language: string,
  dispute: DisputeRow,
  escrowSantim: number,
  reader: "patient" | "doctor",
  doctorFirstName: string,
) {
  const reason = t(`disputes.reasons.${dispute.reason}`);
  const date = formatDay(dispute.createdAt, language);
  const lines =
    reader === "patient"
      ? [t("disputes.patient.opened", { date, reason }), t("disputes.yourWords", { words: dispute.patientWords })]
      : [t("disputes.doctor.opened", { date, reason }), t("disputes.patientWords", { words: dispute.patientWords })];
  if (dispute.doctorAnswer)
    lines.push(
      reader === "patient"
        ? t("disputes.doctorAnswer", { name: doctorFirstName, answer: dispute.doctorAnswer })
        : t("disputes.yourAnswer", { answer: dispute.doctorAnswer }),
    );
  if (dispute.status === "resolved" && dispute.resolution) {
    const refund = dispute.refundSantim ?? 0;
    lines.push(
      t(`disputes.decision.${dispute.resolution}`, { refund: birrText(refund), release: birrText(Math.max(escrowSantim - refund, 0)) }),
    );
    if (dispute.resolutionNote) lines.push(t("disputes.decisionNote", { note: dispute.resolutionNote }));
  } else if (reader === "patient") lines.push(t("disputes.patient.waiting"));
  return lines;
}

type EscrowRow = NonNullable<Awaited<ReturnType<typeof escrowOf>>>;

/** Where a paid consultation's money is, for its patient: the facts its wording needs. */
export type PatientMoneyState =
  | { kind: "held"; amountSantim: number; releaseDueAt: Date | null }
  | { kind: "disputed" | "in_review" | "charged_back"; amountSantim: number }
  | { kind: "released"; amountSantim: number; releasedAt: Date }
  | { kind: "refunding" | "refunded"; amountSantim: number; refundSantim: number; refundedAt: Date | null };

/**
 * Where the escrow's money is now: held (and, once the consultation ended, until when), frozen by a
 * dispute or an admin's review, taken back by the patient's bank, released to the doctor, or given back to the patient in whole or in part
 * (being refunded until the provider settles it; a refund that failed waits for an admin, still owed).
 */
export async function patientMoneyState(db: Database, escrow: EscrowRow, completedAt: Date | null): Promise<PatientMoneyState> {
  const amountSantim = escrow.amountSantim;
  if (escrow.status === "disputed" || escrow.status === "in_review" || escrow.status === "charged_back")
    return { kind: escrow.status, amountSantim };
  if (escrow.status === "held") return { kind: "held", amountSantim, releaseDueAt: releaseDueAt(completedAt) };
  const refund = await refundOfPayment(db, escrow.paymentId);
  if (refund) {
    const refunded = refund.status === "succeeded";
    return {
      kind: refunded ? "refunded" : "refunding",
      amountSantim,
      refundSantim: refund.amountSantim,
      refundedAt: refunded ? (refund.settledAt ?? refund.updatedAt) : null,
    };
  }
  if (escrow.status === "released" && escrow.releasedAt) return { kind: "released", amountSantim, releasedAt: escrow.releasedAt };
  // Refunded in the escrow, its refund not yet recorded (never for long: both are written in one batch).
  return { kind: "refunding", amountSantim, refundSantim: amountSantim, refundedAt: null };
}

/** The sentence that says where the money is, in the reader's language. */
export function patientMoneyLine(t: TFunction, language: string, state: PatientMoneyState, doctorFirstName: string): string {
  const amount = birrText(state.amountSantim);
  const name = doctorFirstName;
  switch (state.kind) {
    case "held":
      return state.releaseDueAt
        ? t("escrow.heldAfterEnd", { amount, name, date: formatMoment(state.releaseDueAt, language) })
        : t("escrow.heldBeforeEnd", { amount });
    case "disputed":
      return t("escrow.disputedNotice", { amount });
    case "in_review":
      return t("escrow.inReviewNotice", { amount });
    case "charged_back":
      return t("escrow.chargedBackNotice", { amount });
    case "released":
      return t("escrow.released", { amount, name, date: formatDay(state.releasedAt, language) });
    case "refunding":
    case "refunded": {
      const refund = birrText(state.refundSantim);
      const date = state.refundedAt ? formatDay(state.refundedAt, language) : "";
      if (state.refundSantim >= state.amountSantim)
        return state.kind === "refunded" ? t("escrow.refundedOn", { amount, date }) : t("escrow.refundedNotice", { amount });
      const release = birrText(state.amountSantim - state.refundSantim);
      return state.kind === "refunded"
        ? t("escrow.partRefundedOn", { amount, refund, release, name, date })
        : t("escrow.partRefunding", { amount, refund, release, name });
    }
  }
}

/** A payment that could not start its consultation (late, or a second one), as its patient reads it: refunded, or to be. */
export function latePaymentNotice(
  t: TFunction,
  language: string,
  late: { amountSantim: number; refundedAt: Date | null; reason: LateReason },
): string {
  const amount = birrText(late.amountSantim);
  if (late.refundedAt) return t("payment.refundedNotice", { amount, date: formatDay(late.refundedAt, language) });
  return t(late.reason === "already_paid" ? "payment.duplicateNotice" : "payment.lateNotice", { amount });
}

/** Where a payment's receipt is. */
export const receiptPath = (paymentId: string) => `/patient/payment/${paymentId}/receipt`;

/** The patient's panels: their payment, and the dispute (its form while they may open one). */
export async function patientMoneyPanels(
  db: Database,
  t: TFunction,
  language: string,
  consultation: Consultation,
  doctorFirstName: string,
  now: Date,
  disputeForm?: DisputeFormState,
): Promise<WordedPanelProps[]> {
  const escrow = await escrowOf(db, consultation.id);
  if (!escrow) return [];
  const completedAt = consultation.status === "completed" ? consultation.completedAt : null;
  const state = await patientMoneyState(db, escrow, completedAt);
  const payment: WordedPanelProps = {
    id: "escrow",
    title: t("escrow.title"),
    lines: [patientMoneyLine(t, language, state, doctorFirstName)],
    link: { to: receiptPath(escrow.paymentId), label: t("escrow.receipt") },
  };
  // Ended by an admin after it was paid (its doctor could not finish it): why, before where the money is.
  if (consultation.status === "cancelled") {
    const refund = await refundOfPayment(db, escrow.paymentId);
    if (refund?.reason === "cancelled") payment.lines.unshift(t("escrow.cancelledAfterPayment", { note: refund.note ?? "" }));
  }
  if (state.kind === "held" && completedAt) {
    payment.lines.push(t("escrow.releaseNow"), t("escrow.confirmExplain"));
    // Its forms post to the page they are on (the consultation's, or its feedback page), which answers them.
    payment.form = { intent: CONFIRM_COMPLETE_INTENT, fields: [], submit: t("escrow.confirm") };
  }
  const panels = [payment];
  const dispute = await disputeOf(db, consultation.id);
  const closesAt = completedAt ? new Date(completedAt.getTime() + DISPUTE_WINDOW_MS) : null;
  if (dispute)
    panels.push({
      id: "dispute",
      title: t("disputes.title"),
      lines: disputeLines(t, language, dispute, escrow.amountSantim, "patient", doctorFirstName),
    });
  else if (closesAt && escrow.status === "held" && now < closesAt)
    panels.push({
      id: "dispute",
      title: t("disputes.title"),
      lines: [t("disputes.patient.open", { date: formatMoment(closesAt, language) })],
      form: {
        intent: DISPUTE_INTENTS.open,
        disclosure: t("disputes.patient.openButton"),
        open: Boolean(disputeForm),
        submit: t("disputes.patient.submit"),
        fields: [
          {
            name: "reason",
            label: t("disputes.patient.reason"),
            kind: "select",
            options: [
              { value: "", label: t("disputes.patient.choose") },
              ...DISPUTE_REASONS.map((reason) => ({ value: reason, label: t(`disputes.reasons.${reason}`) })),
            ],
            value: disputeForm?.values.reason,
            error: disputeForm?.errors.reason,
          },
          {
            name: "words",
            label: t("disputes.patient.words"),
            kind: "textarea",
            value: disputeForm?.values.words,
            error: disputeForm?.errors.words,
          },
        ],
      },
    });
  // After the window the dispute button is gone, and says why (a patient who confirmed it knows).
  else if (closesAt && now >= closesAt && !escrow.confirmedAt)
    panels.push({
      id: "dispute",
      title: t("disputes.title"),
      lines: [t("disputes.patient.closed", { hours: DISPUTE_WINDOW_HOURS, date: formatDay(closesAt, language) })],
    });
  return panels;
}

/**
 * The doctor's panel about the money of their consultation: a dispute and the form for their one
 * answer, or that an admin cancelled it after payment and why.
 */
export async function doctorMoneyPanel(
  db: Database,
  t: TFunction,
  language: string,
  consultationId: string,
  doctorId: string,
  answerForm?: DisputeFormState,
): Promise<WordedPanelProps | null> {
  const [dispute, escrow] = await Promise.all([disputeOf(db, consultationId), escrowOf(db, consultationId)]);
  if (!escrow || escrow.doctorId !== doctorId) return null;
  if (!dispute) {
    const refund = escrow.status === "refunded" ? await refundOfPayment(db, escrow.paymentId) : null;
    return refund?.reason === "cancelled"
      ? { id: "cancelled", title: t("escrow.title"), lines: [t("escrow.cancelledAfterPaymentDoctor", { note: refund.note ?? "" })] }
      : null;
  }
  if (dispute.doctorId !== doctorId) return null;
  const panel: WordedPanelProps = {
    id: "dispute",
    title: t("disputes.title"),
    lines: disputeLines(t, language, dispute, escrow.amountSantim, "doctor", ""),
  };
  if (dispute.status === "open" && dispute.doctorAnswer === null)
    panel.form = {
      action: `/doctor/consultation/${consultationId}`,
      intent: DISPUTE_INTENTS.answer,
      submit: t("disputes.doctor.submit"),
      fields: [
        {
          name: "answer",
          label: t("disputes.doctor.answerLabel"),
          kind: "textarea",
          value: answerForm?.values.answer,
          error: answerForm?.errors.answer,
        },
      ],
    };
  return panel;
}
