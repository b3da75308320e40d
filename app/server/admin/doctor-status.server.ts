// A doctor activated or deactivated by an admin. Deactivating one ends every session of theirs, and with
// them their live sockets.
import type { DoctorStatus } from "~/domain/roles";
import { endAllSessions, type SessionContext } from "~/server/auth/end-sessions.server";
import { updateDoctorStatus } from "~/server/db/doctors.server";

export async function setDoctorStatus(context: SessionContext, doctorId: string, status: DoctorStatus, now: Date) {
  await updateDoctorStatus(context.db, doctorId, status, now);
  // Rooms also check a doctor's status before each send, so nothing reaches them in between.
  if (status === "inactive") await endAllSessions(context, doctorId);
}
