// Doctor accounts. Deactivating one ends every session of theirs, and with them their live sockets.
import { eq } from "drizzle-orm";

import { doctors } from "~/db/schema";
import type { DoctorStatus } from "~/domain/roles";
import { endAllSessions, type SessionContext } from "~/server/auth/end-sessions.server";

export async function setDoctorStatus(context: SessionContext, doctorId: string, status: DoctorStatus, now: Date) {
  await context.db.update(doctors).set({ status, updatedAt: now }).where(eq(doctors.userId, doctorId));
  // Rooms also check a doctor's status before each send, so nothing reaches them in between.
  if (status === "inactive") await endAllSessions(context, doctorId);
}
