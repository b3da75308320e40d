// What each side reads about a consultation's money, worded on the server in the reader's language
// (the pages ship none of these texts): where the payment is and when it goes to the doctor, the
// patient's "complete" and dispute forms while they may use them, and a dispute's course and outcome.
import type { TFunction } from "i18next";

import type { WordedPanelProps } from "~/components/worded-panel";
import { DISPUTE_WINDOW_HOURS } from "~/domain/constants";
import { formatDay, formatMoment } from "~/domain/dates";
import { DISPUTE_INTENTS, DISPUTE_REASONS } from "~/domain/disputes";
import { DISPUTE_WINDOW_MS, releaseDueAt } from "~/domain/escrow";
import { birrText } from "~/domain/money";
import type { ConsultationRow } from "~/server/consultations/move.server";
import type { Database } from "~/server/db/client.server";

import { disputeOf, type DisputeRow } from "./disputes.server";
import { escrowOf } from "./escrow.server";

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
  const action = `/patient/consultation/${consultation.id}`;
  const amount = birrText(escrow.amountSantim);
  const completedAt = consultation.status === "completed" ? consultation.completedAt : null;
  const payment: WordedPanelProps = { id: "escrow", title: t("escrow.title"), lines: [] };
  if (escrow.status === "released" && escrow.releasedAt)
    payment.lines.push(t("escrow.released", { amount, name: doctorFirstName, date: formatDay(escrow.releasedAt, language) }));
  else if (escrow.status === "disputed" || escrow.status === "in_review") payment.lines.push(t("escrow.disputedNotice", { amount }));
  else if (escrow.status === "refunded") payment.lines.push(t("escrow.refundedNotice", { amount }));
  else if (!completedAt) payment.lines.push(t("escrow.heldBeforeEnd", { amount }));
  else {
    payment.lines.push(
      t("escrow.heldAfterEnd", { amount, name: doctorFirstName, date: formatMoment(releaseDueAt(completedAt)!, language) }),
      t("escrow.confirmExplain"),
    );
    payment.form = { action, intent: CONFIRM_COMPLETE_INTENT, fields: [], submit: t("escrow.confirm") };
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
        action,
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

/** The doctor's panel: a dispute of their consultation, and the form for their one answer. */
export async function doctorDisputePanel(
  db: Database,
  t: TFunction,
  language: string,
  consultationId: string,
  doctorId: string,
  answerForm?: DisputeFormState,
): Promise<WordedPanelProps | null> {
  const [dispute, escrow] = await Promise.all([disputeOf(db, consultationId), escrowOf(db, consultationId)]);
  if (!dispute || !escrow || dispute.doctorId !== doctorId) return null;
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
