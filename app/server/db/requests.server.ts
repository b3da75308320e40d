// Reading patients' requests: their drafts, doctor codes, and the summaries doctors see in the queue
// (writing them is app/server/consultations/'s).
import { and, asc, count, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";

import { consultationFiles, consultations, doctors, profiles } from "~/db/schema";
import { intakeOf, type StoredIntake } from "~/domain/consultation-request";
import { isReservedForAnother } from "~/domain/reservations";
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

/**
 * A waiting request as the lobby holds it: what doctors see of it, and, for a follow-up, the earlier
 * consultation and the doctor it is kept for until `reservedUntil` (ms since the epoch).
 */
export interface QueuedRequest {
  summary: Omit<RequestSummary, "followUpOf">;
  followUpOfId: string | null;
  reservedForDoctorId: string | null;
  reservedUntil: number | null;
}

/**
 * What `doctorId` sees of a waiting request at `now`: nothing while it is kept for another doctor; a
 * follow-up names the earlier consultation only to the doctor it is kept for (the one it was with).
 */
export function summaryFor(request: QueuedRequest, doctorId: string, now: number): RequestSummary | null {
  if (isReservedForAnother(request, doctorId, now)) return null;
  const ofTheirs = request.followUpOfId !== null && request.reservedForDoctorId === doctorId;
  return ofTheirs ? { ...request.summary, followUpOf: request.followUpOfId! } : request.summary;
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
      followUpOfId: string | null;
      reservedForDoctorId: string | null;
      reservedUntil: Date | null;
    } & StoredIntake
  >,
): Promise<QueuedRequest[]> {
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
      summary: {
        id: row.id,
        // Cleaned again on the way out, for rows written before input was cleaned.
        title: cleanLine(row.title),
        priority: row.priority,
        waitingSince: row.createdAt.getTime(),
        patientFirstName: cleanLine(row.patientFirstName ?? ""),
        photoCount: photoCounts.get(row.id) ?? 0,
        requestedDoctorCode: row.requestedDoctorCode,
        triage: triages[index]!,
      },
      followUpOfId: row.followUpOfId,
      reservedForDoctorId: row.reservedForDoctorId,
      reservedUntil: row.reservedUntil?.getTime() ?? null,
    }))
    .sort((a, b) => byQueueOrder(a.summary, b.summary));
}

/** The requests waiting for a doctor that `doctorId` may see at `now`, in queue order. */
export async function waitingRequestsFor(db: Database, doctorId: string, now: Date): Promise<RequestSummary[]> {
  return (await waitingRequests(db)).flatMap((request) => summaryFor(request, doctorId, now.getTime()) ?? []);
}

/** Every request waiting for a doctor, in queue order, with whom each is kept for. */
export async function waitingRequests(db: Database): Promise<QueuedRequest[]> {
  const rows = await db
    .select(summaryColumns)
    .from(consultations)
    .leftJoin(profiles, eq(profiles.userId, consultations.patientId))
    .where(eq(consultations.status, "pending"))
    .orderBy(sql`CASE ${consultations.priority} WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 ELSE 2 END`, asc(consultations.createdAt));
  return withPhotoCounts(db, rows);
}

/** The waiting requests among `consultationIds` (those no longer waiting are left out). */
export async function waitingRequestsAmong(db: Database, consultationIds: string[]): Promise<QueuedRequest[]> {
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

export async function waitingRequest(db: Database, consultationId: string): Promise<QueuedRequest | null> {
  return (await waitingRequestsAmong(db, [consultationId]))[0] ?? null;
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
