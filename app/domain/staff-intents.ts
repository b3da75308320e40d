// The admin console's names that pages need at once (form intents, tabs, filters), apart from the
// schemas in staff-forms.ts, which only the lazily loaded validators bring to the browser.

export const ADD_DOCTOR_INTENT = "add-doctor";
export const ADD_ADMIN_INTENT = "add-admin";
export const UPDATE_DOCTOR_INTENT = "update-doctor";
export const DOCTOR_STATUS_INTENTS = ["activate", "deactivate"] as const;
export type DoctorStatusIntent = (typeof DOCTOR_STATUS_INTENTS)[number];

/** The patients list's filter: where a patient's consultations stand. */
export const PATIENT_FILTERS = ["active", "waiting", "completed", "none"] as const;
export type PatientFilter = (typeof PATIENT_FILTERS)[number];

export function patientFilterOf(value: string | null): PatientFilter | null {
  return (PATIENT_FILTERS as readonly string[]).includes(value ?? "") ? (value as PatientFilter) : null;
}

/** The registered-users tabs of the dashboard. */
export const USER_TABS = ["patients", "doctors", "admins"] as const;
export type UserTab = (typeof USER_TABS)[number];

export function userTabOf(value: string | null): UserTab {
  return (USER_TABS as readonly string[]).includes(value ?? "") ? (value as UserTab) : "patients";
}
