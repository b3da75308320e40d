// Reading patients' requests: their drafts, doctor codes, and the summaries doctors see in the queue
// (writing them is app/server/consultations/'s).
import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";

import { consultationFiles, consultations, doctors, profiles } from "~/db/schema";
import { intakeOf, type StoredIntake } from "~/domain/consultation-request";
import { cleanLine } from "~/domain/text-hygiene";
import { byQueueOrder, type RequestSummary } from "~/realtime/protocol";
import type { Database } from "~/server/db/client.server";
import { intakeColumns } from "~/server/db/intake-columns.server";
import { triageLines } from "~/server/intake-words.server";

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
};

async function withPhotoCounts(
  db: Database,
  rows: Array<
    {
      id: string;
      title: string;
      priority: RequestSummary["priority"];
      createdAt: Date;
      requestedDoctorCode: string | null;
      patientFirstName: string | null;
    } & StoredIntake
  >,
): Promise<RequestSummary[]> {
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
  const triages = await Promise.all(rows.map((row) => triageLines(intakeOf(row))));
  return rows
    .map((row, index) => ({
      id: row.id,
      // Cleaned again on the way out, for rows written before input was cleaned.
      title: cleanLine(row.title),
      priority: row.priority,
      waitingSince: row.createdAt.getTime(),
      patientFirstName: cleanLine(row.patientFirstName ?? ""),
      photoCount: photoCounts.get(row.id) ?? 0,
      requestedDoctorCode: row.requestedDoctorCode,
      triage: triages[index]!,
    }))
    .sort(byQueueOrder);
}

/** Every request waiting for a doctor, in queue order. */
export async function pendingRequestSummaries(db: Database): Promise<RequestSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
    .where(eq(consultations.status, "pending"))
    .orderBy(sql`CASE ${consultations.priority} WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 ELSE 2 END`, asc(consultations.createdAt));
  return withPhotoCounts(db, rows);
}

export async function requestSummary(db: Database, consultationId: string): Promise<RequestSummary | null> {
  const rows = await db
    .select(summaryColumns)
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
    .where(and(eq(consultations.id, consultationId), eq(consultations.status, "pending")));
  return (await withPhotoCounts(db, rows))[0] ?? null;
}

export async function pendingRequestCount(db: Database) {
  const [row] = await db.select({ waiting: count() }).from(consultations).where(eq(consultations.status, "pending"));
  return row?.waiting ?? 0;
}

export async function doctorCodeOf(db: Database, doctorId: string) {
  const doctor = await db.query.doctors.findFirst({ columns: { doctorCode: true }, where: eq(doctors.userId, doctorId) });
  return doctor?.doctorCode ?? null;
}
