// "My Patients": a doctor's consultations grouped by patient.
import type { ConsultationStatus } from "./consultation-status";

export interface ConsultationOfPatient {
  patientId: string;
  patientName: string;
  patientEmail: string;
  status: ConsultationStatus;
  createdAt: Date;
  completedAt: Date | null;
  diagnosis: string | null;
}

type PatientStanding = "ongoing" | "pending" | "completed";

export interface PatientGroup {
  patientId: string;
  name: string;
  email: string;
  lastConsultationAt: Date;
  total: number;
  ongoing: number;
  completed: number;
  /** Ongoing if any consultation is in progress, else pending if any waits, else completed (spec). */
  standing: PatientStanding;
  /** The latest real diagnosis the doctor wrote, or null; never a made-up sentence. */
  latestDiagnosis: string | null;
}

const ONGOING: ConsultationStatus[] = ["in_progress"];
const WAITING: ConsultationStatus[] = ["pending", "accepted_awaiting_payment"];

export function groupByPatient(rows: ConsultationOfPatient[]): PatientGroup[] {
  const groups = new Map<string, ConsultationOfPatient[]>();
  for (const row of rows) groups.set(row.patientId, [...(groups.get(row.patientId) ?? []), row]);
  return [...groups.values()]
    .map((consultations) => {
      const newestFirst = [...consultations].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      const first = newestFirst[0]!;
      const count = (statuses: ConsultationStatus[]) => consultations.filter((row) => statuses.includes(row.status)).length;
      const ongoing = count(ONGOING);
      const diagnosed = consultations
        .filter((row) => row.diagnosis && row.diagnosis.trim() !== "")
        .sort((a, b) => (b.completedAt ?? b.createdAt).getTime() - (a.completedAt ?? a.createdAt).getTime());
      const standing: PatientStanding = ongoing > 0 ? "ongoing" : count(WAITING) > 0 ? "pending" : "completed";
      return {
        patientId: first.patientId,
        name: first.patientName,
        email: first.patientEmail,
        lastConsultationAt: first.createdAt,
        total: consultations.length,
        ongoing,
        completed: count(["completed"]),
        standing,
        latestDiagnosis: diagnosed[0]?.diagnosis ?? null,
      };
    })
    .sort((a, b) => b.lastConsultationAt.getTime() - a.lastConsultationAt.getTime());
}
