/**
 * The words of the doctor's summary form and payment panels, translated by the server for the one page
 * that shows them (app/server/consultation-view.server.ts), so that no other doctor page ships them.
 */
export interface DoctorClosingTexts {
  summaryTitle: string;
  labels: { observations: string; diagnosis: string; treatmentPlan: string };
  hint: string;
  /** The optional "send me new photos in N days". */
  newPhotos: { label: string; hint: string };
  save: string;
  busy: string;
  endOpen: string;
  endWarning: string;
  endConfirm: string;
  endError: string;
  saveFailed: string;
  /** The summary form's errors and the closing refusals, by their translation keys. */
  messages: Record<string, string>;
  patientTimeLeft: string;
  paymentReceived: string;
  paymentReceivedBody: string;
}
