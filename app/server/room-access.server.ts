// The guard every room runs before a socket is accepted (partyserver's onBeforeConnect and
// onBeforeRequest): who is asking, from which site, for which room.
import { eq } from "drizzle-orm";
import { consultations } from "~/db/schema";
import { findSessionUser } from "~/server/auth/session.server";
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

/** Null when the request may go on to the room, else the refusal to send instead. */
export async function refuseRoomAccess(
  db: Database,
  request: Request,
  room: RoomAddress,
  now: Date,
): Promise<Response | null> {
  if (!isSameOriginRequest(request)) return refuse(403, "Cross-site connections are not allowed.");
  const user = await findSessionUser(db, request, now);
  if (!user) return refuse(401, "Sign in required.");

  if (room.className === "DoctorsLobby") {
    const isActiveDoctor = user.role === "doctor" && user.doctorStatus === "active";
    return isActiveDoctor ? null : refuse(403, "Only active doctors can join the lobby.");
  }
  if (room.className === "ConsultationRoom") {
    const consultation = await db.query.consultations.findFirst({
      columns: { patientId: true, doctorId: true },
      where: eq(consultations.id, room.name),
    });
    if (!consultation) return refuse(404, "No such consultation.");
    const isParticipant = user.userId === consultation.patientId || user.userId === consultation.doctorId;
    return isParticipant ? null : refuse(403, "Only the patient and the assigned doctor can join.");
  }
  return refuse(404, "No such room.");
}
