// The guard every room runs before a socket is accepted (partyserver's onBeforeConnect and
// onBeforeRequest): who is asking, from which site, for which room. A socket it lets in carries who
// opened it and with which session, so the room can close it when that session ends.
import { eq } from "drizzle-orm";

import { consultations } from "~/db/schema";
import { mayJoinLobby, takesPartIn } from "~/domain/consultation-access";
import { isUuid } from "~/domain/ids";
import { ROOMS } from "~/realtime/protocol";
import { setRoomIdentity } from "~/realtime/room-contract";
import { findSessionUser, type SessionUser } from "~/server/auth/session.server";
import type { Database } from "~/server/db/client.server";
import { isSameOriginRequest } from "~/server/same-origin.server";

export interface RoomAddress {
  /** The Durable Object class the URL names, e.g. "DoctorsLobby". */
  className: string;
  /** The room's name: "main" for the lobby, the consultation id for a consultation room. */
  name: string;
}

function refuse(status: 401 | 403 | 404, message: string) {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * The request passed on to the room, saying whose socket it is (whatever the client sent is replaced).
 * Each socket also gets a fresh connection id: partysocket reuses its `_pk` on every reconnect, and a
 * new socket sharing the old one's id would be dropped from the room when the old one's close arrives.
 */
function admit(request: Request, user: SessionUser): Request {
  const url = new URL(request.url);
  url.searchParams.set("_pk", crypto.randomUUID());
  const headers = new Headers(request.headers);
  setRoomIdentity(headers, { sessionId: user.sessionId, userId: user.userId, endsAt: user.sessionEndsAt.getTime() });
  return new Request(url, { method: request.method, headers, body: request.body });
}

/** The request to pass on to the room, or the refusal to send instead. */
export async function checkRoomAccess(db: Database, request: Request, room: RoomAddress, now: Date): Promise<Request | Response> {
  if (!isSameOriginRequest(request)) return refuse(403, "Cross-site connections are not allowed.");
  const user = await findSessionUser(db, request, now);
  if (!user) return refuse(401, "Sign in required.");

  if (room.className === ROOMS.lobby.className) {
    if (room.name !== ROOMS.lobby.name) return refuse(404, "No such room.");
    return mayJoinLobby(user) ? admit(request, user) : refuse(403, "Only active doctors can join the lobby.");
  }
  if (room.className === ROOMS.consultation.className) {
    const consultation = isUuid(room.name)
      ? await db.query.consultations.findFirst({ columns: { patientId: true, doctorId: true }, where: eq(consultations.id, room.name) })
      : undefined;
    if (!consultation) return refuse(404, "No such consultation.");
    return takesPartIn(user.userId, consultation)
      ? admit(request, user)
      : refuse(403, "Only the patient and the assigned doctor can join.");
  }
  return refuse(404, "No such room.");
}
