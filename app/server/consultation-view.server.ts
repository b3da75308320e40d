// What a consultation page sends to the browser: the fields people read, nothing more.
import type { TFunction } from "i18next";

import { SUMMARY_ERRORS } from "~/domain/consultation-closing";
import { newPhotosDaysOf } from "~/domain/follow-ups";
import type { DoctorClosingTexts } from "~/domain/views/doctor-closing-texts";
import { CLOSING_REFUSAL_MESSAGES } from "~/refusal-messages";
import type { ConsultationRow } from "~/server/consultation-access.server";

export function consultationForPage(consultation: ConsultationRow) {
  return {
    id: consultation.id,
    status: consultation.status,
    priority: consultation.priority,
    title: consultation.title,
    mainConcern: consultation.mainConcern,
    medicalHistory: consultation.medicalHistory,
    additionalComments: consultation.additionalComments,
    /** Until when the patient may pay (while a doctor's acceptance waits for payment). */
    paymentDeadline: consultation.paymentDeadlineAt?.toISOString() ?? null,
    /** The doctor's summary as saved so far (patients are shown it once the consultation is completed). */
    summary: {
      observations: consultation.observations ?? "",
      diagnosis: consultation.diagnosis ?? "",
      treatmentPlan: consultation.treatmentPlan ?? "",
    },
    /** The doctor's "new photos in N days", counted from when it was written (the end, or the last save). */
    newPhotosInDays: newPhotosDaysOf(consultation.newPhotosDueAt, consultation.completedAt ?? consultation.updatedAt),
    /** Why a doctor declined it (the patient is told), or null. */
    decline: consultation.declineReason ? { reason: consultation.declineReason, note: consultation.declineNote } : null,
  };
}

/**
 * The words of the doctor's closing and payment panels, translated here: only this page shows them,
 * so no other doctor page ships them (as with the chat's words).
 */
export function doctorClosingTexts(t: TFunction): DoctorClosingTexts {
  return {
    summaryTitle: t("consultation.summary.title"),
    labels: {
      observations: t("consultation.summary.observations"),
      diagnosis: t("consultation.summary.diagnosis"),
      treatmentPlan: t("consultation.summary.treatmentPlan"),
    },
    hint: t("doctor.closing.hint"),
    newPhotos: { label: t("followUp.newPhotos.label"), hint: t("followUp.newPhotos.hint") },
    save: t("doctor.closing.save"),
    busy: t("forms.busy"),
    endOpen: t("doctor.closing.endOpen"),
    endWarning: t("doctor.closing.endWarning"),
    endConfirm: t("doctor.closing.endConfirm"),
    endError: t("doctor.closing.endError"),
    saveFailed: t("doctor.closing.saveFailed"),
    /** The summary form's errors and the refusals, by their keys. */
    messages: Object.fromEntries([...SUMMARY_ERRORS, ...Object.values(CLOSING_REFUSAL_MESSAGES)].map((key) => [key, t(key)])) as Record<
      string,
      string
    >,
    patientTimeLeft: t("doctor.payment.patientTimeLeft"),
    paymentReceived: t("doctor.payment.received"),
    paymentReceivedBody: t("doctor.payment.receivedBody"),
  };
}
