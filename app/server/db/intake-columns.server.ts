// The intake's columns, for selects that read it (app/domain/consultation-request.ts intakeOf reads them back).
import { consultations } from "~/db/schema";

export const intakeColumns = {
  patientAgeYears: consultations.patientAgeYears,
  patientSex: consultations.patientSex,
  bodyAreas: consultations.bodyAreas,
  durationAmount: consultations.durationAmount,
  durationUnit: consultations.durationUnit,
  symptoms: consultations.symptoms,
  treatmentsTried: consultations.treatmentsTried,
  allergies: consultations.allergies,
  pregnancy: consultations.pregnancy,
};
