// Doctor accounts.
import { eq } from "drizzle-orm";

import { doctors } from "~/db/schema";
import type { DoctorStatus } from "~/domain/roles";
import type { Database } from "~/server/db/client.server";

export async function updateDoctorStatus(db: Database, doctorId: string, status: DoctorStatus, now: Date) {
  await db.update(doctors).set({ status, updatedAt: now }).where(eq(doctors.userId, doctorId));
}
