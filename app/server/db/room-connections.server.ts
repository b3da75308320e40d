// The registry of live room sockets by session (schema: roomConnections), and the check rooms make
// before they send: which of their connections' sessions are still alive.
import { and, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";

import { doctors, roomConnections, sessionChanges, sessions } from "~/db/schema";
import { SESSION_IDLE_TIMEOUT_MS } from "~/domain/constants";
import { sessionEndsAt } from "~/domain/session-lifetime";
import type { ROOMS } from "~/realtime/protocol";
import { inSlices } from "~/server/db/chunks.server";
import type { Database } from "~/server/db/client.server";

export type RoomClass = (typeof ROOMS)[keyof typeof ROOMS]["className"];

export interface RoomConnection {
  roomClass: RoomClass;
  roomName: string;
  connectionId: string;
  sessionId: string;
}

export async function registerConnection(db: Database, connection: RoomConnection, now: Date) {
  await db
    .insert(roomConnections)
    .values({ ...connection, connectedAt: now })
    .onConflictDoNothing();
}

export async function unregisterConnections(db: Database, roomClass: RoomClass, roomName: string, connectionIds: string[]) {
  for (const slice of inSlices(connectionIds)) {
    await db
      .delete(roomConnections)
      .where(
        and(eq(roomConnections.roomClass, roomClass), eq(roomConnections.roomName, roomName), inArray(roomConnections.connectionId, slice)),
      );
  }
}

/** The rooms that hold a socket of any of `sessionIds`. */
export async function roomsWithSessions(db: Database, sessionIds: string[]) {
  const rooms = new Map<string, { roomClass: RoomClass; roomName: string }>();
  for (const slice of inSlices(sessionIds)) {
    const rows = await db
      .selectDistinct({ roomClass: roomConnections.roomClass, roomName: roomConnections.roomName })
      .from(roomConnections)
      .where(inArray(roomConnections.sessionId, slice));
    for (const row of rows)
      rooms.set(`${row.roomClass}/${row.roomName}`, { roomClass: row.roomClass as RoomClass, roomName: row.roomName });
  }
  return [...rooms.values()];
}

export async function forgetSessionsConnections(db: Database, sessionIds: string[]) {
  for (const slice of inSlices(sessionIds)) await db.delete(roomConnections).where(inArray(roomConnections.sessionId, slice));
}

/** Housekeeping: rows older than any session can live are left from sockets that closed unnoticed. */
export async function deleteConnectionsOpenedBefore(db: Database, cutoff: Date) {
  const deleted = await db
    .delete(roomConnections)
    .where(lt(roomConnections.connectedAt, cutoff))
    .returning({ sessionId: roomConnections.sessionId });
  return deleted.length;
}

/**
 * How many changes that could end a session early D1 has seen (a count its triggers keep, whoever
 * writes): while it holds, sessions found alive stay alive until the end they were given. Null when
 * the count is missing, which trusts nothing.
 */
export async function sessionChangeCount(db: Database): Promise<number | null> {
  const [row] = await db.select({ count: sessionChanges.count }).from(sessionChanges).where(eq(sessionChanges.id, 1));
  return row?.count ?? null;
}

/** The same count as a column of another query (a room reading its own row reads it along). */
export function sessionChangeCountColumn() {
  return sql<number | null>`(SELECT ${sessionChanges.count} FROM ${sessionChanges} WHERE ${sessionChanges.id} = 1)`;
}

/**
 * Of `sessionIds`, those still alive at `now` (not ended, not idle too long, not past their end, and
 * not a doctor's whom an admin has made inactive), each with the moment it will end if nothing
 * happens meanwhile.
 */
export async function liveSessions(db: Database, sessionIds: string[], now: Date): Promise<Map<string, Date>> {
  const live = new Map<string, Date>();
  if (sessionIds.length === 0) return live;
  const idleSince = new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS);
  // All ids in one bound JSON array: one indexed query however many sockets the room holds.
  const rows = await db
    .select({ id: sessions.id, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .leftJoin(doctors, eq(doctors.userId, sessions.userId))
    .where(
      and(
        inArray(sessions.id, sql`(SELECT value FROM json_each(${JSON.stringify(sessionIds)}))`),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, idleSince),
        or(isNull(doctors.status), eq(doctors.status, "active")),
      ),
    );
  for (const row of rows) live.set(row.id, sessionEndsAt(row));
  return live;
}
