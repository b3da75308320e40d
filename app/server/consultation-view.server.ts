// What a consultation page sends to the browser: the fields people read, nothing more.
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
    /** Why a doctor declined it (the patient is told), or null. */
    decline: consultation.declineReason ? { reason: consultation.declineReason, note: consultation.declineNote } : null,
  };
}
