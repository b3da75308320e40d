// Typed calls from the Worker into the two kinds of rooms.
import { getServerByName } from "partyserver";

import { type ConsultationStatusEvent, ROOMS } from "~/realtime/protocol";
import type { ChatDraft } from "~/realtime/room-contract";
import type { Database } from "~/server/db/client.server";
import { forgetSessionsConnections, roomsWithSessions } from "~/server/db/room-connections.server";
import type { QueuedRequest } from "~/server/waiting-requests.server";

// The generated Env types both namespaces with their room classes, so the stubs are typed without
// importing party/ (which imports this module's callers).
function lobby(env: Env) {
  return getServerByName(env.DoctorsLobby, ROOMS.lobby.name);
}

function consultationRoom(env: Env, consultationId: string) {
  return getServerByName(env.ConsultationRoom, consultationId);
}

/** Every connected doctor sees the request appear (a follow-up: its own doctor alone, for a while). */
export async function announceRequest(env: Env, request: QueuedRequest) {
  await (await lobby(env)).requestAdded(request);
}

/** Follow-ups whose time with their own doctor ran out reach the other doctors (the lobby's alarm does this too). */
export async function releaseEndedReservations(env: Env) {
  return (await lobby(env)).releaseEndedReservations();
}

/** Every connected doctor sees the request go (accepted, declined, withdrawn). */
export async function withdrawRequest(env: Env, consultationId: string) {
  await (await lobby(env)).requestRemoved(consultationId);
}

/** Both people of the consultation hear that its status moved. */
export async function tellParticipants(env: Env, event: ConsultationStatusEvent) {
  await (await consultationRoom(env, event.consultationId)).announce(event);
}

/**
 * Both people of the consultation hear that a step of its timeline happened besides a status move (a
 * dispute, its money released or refunded, the rating). Only news: what changed is already in D1, and a
 * page read after this reads it there; so a room that cannot be reached is logged, never thrown.
 */
export async function tellTimelineMoved(env: Env, consultationId: string) {
  try {
    await (await consultationRoom(env, consultationId)).announce({ type: "timeline", consultationId });
  } catch (error) {
    console.error(JSON.stringify({ event: "timeline_news_failed", consultationId, error: String(error) }));
  }
}

/** The payment arrived: the room stops its countdown and tells both participants. */
export async function paymentConfirmed(env: Env, consultationId: string) {
  await (await consultationRoom(env, consultationId)).paymentConfirmed();
}

/** The consultation's newest `count` messages and who of its two people is connected (a page rendered by the server). */
export async function chatSnapshot(env: Env, consultationId: string, count: number) {
  return (await consultationRoom(env, consultationId)).chatSnapshot(count);
}

/** Every message of the consultation's chat, oldest first. */
export async function chatRecord(env: Env, consultationId: string) {
  return (await consultationRoom(env, consultationId)).chatRecord();
}

/** Removes the consultation's chat for good (its record's retention ended). */
export async function forgetChat(env: Env, consultationId: string) {
  return (await consultationRoom(env, consultationId)).forgetChat();
}

/** A message into the consultation's chat, checked by the room exactly as a socket's message is. */
export async function postChatMessage(env: Env, consultationId: string, draft: ChatDraft) {
  return (await consultationRoom(env, consultationId)).postMessage(draft);
}

export async function armPaymentDeadline(env: Env, consultationId: string, deadline: Date) {
  await (await consultationRoom(env, consultationId)).armPaymentDeadline(deadline);
}

/**
 * Closes, in every room that holds one, the sockets of sessions that have just ended. A room that
 * cannot be reached is logged, not thrown: the sessions are over either way. The lobby checks every
 * session before it sends; a consultation room's chat, within 10 s (ADR 0042).
 */
export async function disconnectSessions(env: Env, db: Database, sessionIds: string[]) {
  if (sessionIds.length === 0) return;
  const rooms = await roomsWithSessions(db, sessionIds);
  const results = await Promise.allSettled(
    rooms.map(async ({ roomClass, roomName }) => {
      const room = roomClass === ROOMS.lobby.className ? await lobby(env) : await consultationRoom(env, roomName);
      await room.endSessions(sessionIds);
    }),
  );
  for (const [index, result] of results.entries()) {
    if (result.status === "rejected")
      console.error(JSON.stringify({ event: "room_disconnect_failed", room: rooms[index], error: String(result.reason) }));
  }
  await forgetSessionsConnections(db, sessionIds);
}
