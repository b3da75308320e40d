// What the patient reads about their payment's escrow, worded on the server in their language, so the
// consultation page ships no escrow logic: where the money is, when it goes to the doctor, and whether
// they may release it now.
import type { TFunction } from "i18next";

import { formatDay } from "~/domain/dates";
import { releaseDueAt } from "~/domain/escrow";
import { birrText } from "~/domain/money";
import type { ConsultationRow } from "~/server/consultations/move.server";
import type { Database } from "~/server/db/client.server";

import { escrowOf } from "./escrow.server";

export interface PatientEscrowView {
  notice: string;
  /** The patient may say the consultation is complete, which releases the money at once. */
  canConfirm: boolean;
}

export async function patientEscrowView(
  db: Database,
  t: TFunction,
  language: string,
  consultation: Pick<ConsultationRow, "id" | "status" | "completedAt">,
  doctorFirstName: string,
): Promise<PatientEscrowView | null> {
  const escrow = await escrowOf(db, consultation.id);
  if (!escrow) return null;
  const amount = birrText(escrow.amountSantim);
  if (escrow.status === "released" && escrow.releasedAt)
    return {
      notice: t("escrow.released", { amount, name: doctorFirstName, date: formatDay(escrow.releasedAt, language) }),
      canConfirm: false,
    };
  if (escrow.status !== "held") return null;
  const due = consultation.status === "completed" ? releaseDueAt(consultation.completedAt) : null;
  if (!due) return { notice: t("escrow.heldBeforeEnd", { amount }), canConfirm: false };
  return { notice: t("escrow.heldAfterEnd", { amount, name: doctorFirstName, date: formatDay(due, language) }), canConfirm: true };
}
