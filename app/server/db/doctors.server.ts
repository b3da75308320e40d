// Doctor accounts. Deactivating one ends their sessions in the same batch, so they are out at once.
import { eq } from "drizzle-orm";
import { doctors, sessions } from "~/db/schema";
import type { DoctorStatus } from "~/domain/roles";
import type { Database } from "~/server/db/client.server";

export async function setDoctorStatus(db: Database, doctorId: string, status: DoctorStatus, now: Date) {
  const update = db.update(doctors).set({ status, updatedAt: now }).where(eq(doctors.userId, doctorId));
  if (status === "active") return void (await update);
  await db.batch([update, db.delete(sessions).where(eq(sessions.userId, doctorId))]);
}
