// Reading patients' requests: their drafts, doctor codes, and the requests waiting in the queue (worded
// for doctors by app/server/waiting-requests.server.ts; writing them is app/server/consultations/'s).
import { and, asc, count, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";

import { consultationFiles, consultations, doctors, profiles } from "~/db/schema";
import type { StoredIntake } from "~/domain/consultation-request";
import type { RequestSummary } from "~/realtime/protocol";
import type { Database } from "~/server/db/client.server";
import { intakeColumns } from "~/server/db/intake-columns.server";

/** The patient's own draft, or undefined (someone else's id finds nothing). */
export async function findOwnDraft(db: Database, draftId: string, patientId: string) {
  return db.query.consultations.findFirst({
    where: and(eq(consultations.id, draftId), eq(consultations.patientId, patientId), eq(consultations.status, "awaiting_assets")),
  });
}

export async function isActiveDoctorCode(db: Database, code: string) {
  const doctor = await db.query.doctors.findFirst({
    columns: { userId: true },
    where: and(eq(doctors.doctorCode, code), eq(doctors.status, "active")),
  });
  return doctor !== undefined;
}

const summaryColumns = {
  id: consultations.id,
  title: consultations.title,
  priority: consultations.priority,
  createdAt: consultations.createdAt,
  updatedAt: consultations.updatedAt,
  requestedDoctorCode: consultations.requestedDoctorCode,
  patientFirstName: profiles.firstName,
  ...intakeColumns,
  followUpOfId: consultations.followUpOfId,
  reservedForDoctorId: consultations.reservedForDoctorId,
  reservedUntil: consultations.reservedUntil,
};

/** A request waiting for a doctor as D1 holds it, with how many photos it has. */
export type WaitingRequestRow = {
  id: string;
  title: string;
  priority: RequestSummary["priority"];
  createdAt: Date;
  requestedDoctorCode: string | null;
  patientFirstName: string | null;
  followUpOfId: string | null;
  reservedForDoctorId: string | null;
  reservedUntil: Date | null;
  photoCount: number;
} & StoredIntake;

async function withPhotoCounts(db: Database, rows: Array<Omit<WaitingRequestRow, "photoCount">>): Promise<WaitingRequestRow[]> {
  if (rows.length === 0) return [];
  const photoCounts = new Map<string, number>();
  for (let start = 0; start < rows.length; start += 90) {
    const ids = rows.slice(start, start + 90).map((row) => row.id);
    const counted = await db
      .select({ consultationId: consultationFiles.consultationId, photos: count() })
      .from(consultationFiles)
      .where(and(inArray(consultationFiles.consultationId, ids), eq(consultationFiles.kind, "photo"), isNull(consultationFiles.deletedAt)))
      .groupBy(consultationFiles.consultationId);
    for (const row of counted) photoCounts.set(row.consultationId, row.photos);
  }
  return rows.map((row) => ({ ...row, photoCount: photoCounts.get(row.id) ?? 0 }));
}

/** Every request waiting for a doctor, with whom each is kept for. */
export async function waitingRequestRows(db: Database): Promise<WaitingRequestRow[]> {
  const rows = await db
    .select(summaryColumns)
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
    .where(eq(consultations.status, "pending"))
    .orderBy(sql`CASE ${consultations.priority} WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 ELSE 2 END`, asc(consultations.createdAt));
  return withPhotoCounts(db, rows);
}

/** The waiting requests among `consultationIds` (those no longer waiting are left out). */
export async function waitingRequestRowsAmong(db: Database, consultationIds: string[]): Promise<WaitingRequestRow[]> {
  const rows = [];
  // In slices: D1 binds at most 100 parameters to a statement.
  for (let start = 0; start < consultationIds.length; start += 90) {
    const ids = consultationIds.slice(start, start + 90);
    rows.push(
      ...(await db
        .select(summaryColumns)
        .from(consultations)
        .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
        .where(and(inArray(consultations.id, ids), eq(consultations.status, "pending")))),
    );
  }
  return withPhotoCounts(db, rows);
}

/** How many requests wait that `doctorId` may see at `now` (the rule of `isReservedForAnother`, as SQL). */
export async function pendingRequestCount(db: Database, doctorId: string, now: Date) {
  const [row] = await db
    .select({ waiting: count() })
    .from(consultations)
    .where(
      and(
        eq(consultations.status, "pending"),
        or(
          isNull(consultations.reservedForDoctorId),
          isNull(consultations.reservedUntil),
          eq(consultations.reservedForDoctorId, doctorId),
          lte(consultations.reservedUntil, now),
        ),
      ),
    );
  return row?.waiting ?? 0;
}

export async function doctorCodeOf(db: Database, doctorId: string) {
  const doctor = await db.query.doctors.findFirst({ columns: { doctorCode: true }, where: eq(doctors.userId, doctorId) });
  return doctor?.doctorCode ?? null;
}
