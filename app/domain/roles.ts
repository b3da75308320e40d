export const ROLES = ["patient", "doctor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const DOCTOR_STATUSES = ["active", "inactive"] as const;
export type DoctorStatus = (typeof DOCTOR_STATUSES)[number];

export const DEFAULT_DOCTOR_SPECIALTY = "Dermatologist";

/** Where each role's own pages begin. */
export function homePathForRole(role: Role): string {
  switch (role) {
    case "patient":
      return "/patient/dashboard";
    case "doctor":
      return "/doctor/dashboard";
    case "admin":
      return "/admin/dashboard";
  }
}
