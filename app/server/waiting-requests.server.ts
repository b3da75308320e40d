// The requests waiting for a doctor as doctors see them in the queue: each with its triage line in every
// language, and, for a follow-up, the doctor it is kept for and until when.
import { intakeOf } from "~/domain/consultation-request";
import { isReservedForAnother } from "~/domain/reservations";
import { cleanLine } from "~/domain/text-hygiene";
import { byQueueOrder, type RequestSummary } from "~/realtime/protocol";
import type { Database } from "~/server/db/client.server";
import { type WaitingRequestRow, waitingRequestRows, waitingRequestRowsAmong } from "~/server/db/requests.server";
import { triageLines } from "~/server/intake-words.server";

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

async function queued(rows: WaitingRequestRow[]): Promise<QueuedRequest[]> {
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
        photoCount: row.photoCount,
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
  return queued(await waitingRequestRows(db));
}

/** The waiting requests among `consultationIds` (those no longer waiting are left out). */
export async function waitingRequestsAmong(db: Database, consultationIds: string[]): Promise<QueuedRequest[]> {
  return queued(await waitingRequestRowsAmong(db, consultationIds));
}

export async function waitingRequest(db: Database, consultationId: string): Promise<QueuedRequest | null> {
  return (await waitingRequestsAmong(db, [consultationId]))[0] ?? null;
}
