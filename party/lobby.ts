// DoctorsLobby: the one room ("main") that signed-in active doctors join to see waiting requests live.
// Who may connect is decided before the socket is accepted (app/server/room-access.server.ts), and a
// socket lives no longer than its session (session-bound-room.ts). Each connection first receives the
// whole queue from D1, so a reconnecting page catches up; after that, requests arriving and leaving
// are pushed as they happen. A follow-up kept for its own doctor reaches only that doctor; when its
// time runs out the room wakes (its alarm) and hands it to every other doctor.
import type { Connection, WSMessage } from "partyserver";

import { type LobbyEvent, LobbyInbound, parseMessage, type RequestSummary, ROOMS } from "~/realtime/protocol";
import type { RoomIdentity } from "~/realtime/room-contract";
import { type QueuedRequest, summaryFor, waitingRequests, waitingRequestsAmong } from "~/server/waiting-requests.server";

import { SessionBoundRoom } from "./session-bound-room";

/** Storage keys of the follow-ups this room has handed to their own doctor alone, each with when that ends (ms). */
const KEPT_PREFIX = "kept-for-its-doctor:";

export class DoctorsLobby extends SessionBoundRoom {
  protected readonly roomClass = ROOMS.lobby.className;

  protected override async welcome(connection: Connection<RoomIdentity>): Promise<void> {
    const now = Date.now();
    const userId = connection.state?.userId ?? "";
    const requests = (await waitingRequests(this.db)).flatMap((request) => summaryFor(request, userId, now) ?? []);
    connection.send(JSON.stringify({ type: "queue", requests } satisfies LobbyEvent));
  }

  /** Doctors only listen here: the protocol has no message for them to send (anything is dropped). */
  override onMessage(_connection: Connection, message: WSMessage): void {
    parseMessage(LobbyInbound, message);
  }

  async requestAdded(request: QueuedRequest): Promise<void> {
    const now = Date.now();
    await this.sendToEachLive(addedMessages(request, now));
    if (request.reservedUntil !== null && request.reservedUntil > now) {
      await this.ctx.storage.put(`${KEPT_PREFIX}${request.summary.id}`, request.reservedUntil);
      await this.wakeWhenKeptEnds();
    }
  }

  async requestRemoved(id: string): Promise<void> {
    await this.sendToLive(JSON.stringify({ type: "request_removed", id } satisfies LobbyEvent));
  }

  /**
   * Follow-ups whose time with their own doctor has run out reach every other doctor now (their own
   * doctor has them already). D1 says what is still waiting and until when; run twice, it sends nothing
   * twice. Called by the alarm, and by the scheduled job in case an alarm was missed.
   */
  async releaseEndedReservations(): Promise<number> {
    const kept = await this.ctx.storage.list<number>({ prefix: KEPT_PREFIX });
    const now = Date.now();
    const waiting = await waitingRequestsAmong(
      this.db,
      [...kept.keys()].map((key) => key.slice(KEPT_PREFIX.length)),
    );
    const stillWaiting = new Map(waiting.map((request) => [request.summary.id, request]));
    let released = 0;
    for (const key of kept.keys()) {
      const request = stillWaiting.get(key.slice(KEPT_PREFIX.length));
      if (request && request.reservedUntil !== null && request.reservedUntil > now) {
        await this.ctx.storage.put(key, request.reservedUntil);
        continue;
      }
      await this.ctx.storage.delete(key);
      if (!request) continue;
      const toOthers = addedMessages(request, now);
      await this.sendToEachLive((userId) => (userId === request.reservedForDoctorId ? null : toOthers(userId)));
      released += 1;
    }
    await this.wakeWhenKeptEnds();
    return released;
  }

  protected override async onWakeUp(): Promise<void> {
    await this.releaseEndedReservations();
  }

  private async wakeWhenKeptEnds(): Promise<void> {
    const ends = [...(await this.ctx.storage.list<number>({ prefix: KEPT_PREFIX })).values()];
    await this.wakeUpAt("reservations", ends.length ? new Date(Math.min(...ends)) : null);
  }
}

/**
 * The `request_added` message each doctor is sent (null: nothing, while it is kept for another). Only
 * two versions exist (for its own doctor, for the others), each written once however many listen.
 */
function addedMessages(request: QueuedRequest, now: number): (userId: string) => string | null {
  const written = new Map<boolean, string | null>();
  const message = (shown: RequestSummary | null) =>
    shown ? JSON.stringify({ type: "request_added", request: shown } satisfies LobbyEvent) : null;
  return (userId) => {
    const itsOwnDoctor = userId === request.reservedForDoctorId;
    if (!written.has(itsOwnDoctor)) written.set(itsOwnDoctor, message(summaryFor(request, userId, now)));
    return written.get(itsOwnDoctor) ?? null;
  };
}
