// DoctorsLobby: the one room ("main") that signed-in active doctors join to see waiting requests live.
// Who may connect is decided before the socket is accepted (app/server/room-access.server.ts), and a
// socket lives no longer than its session (session-bound-room.ts). Each connection first receives the
// whole queue from D1, so a reconnecting page catches up; after that, requests arriving and leaving
// are pushed as they happen.
import type { Connection, WSMessage } from "partyserver";

import { type LobbyEvent, LobbyInbound, parseMessage, type RequestSummary, ROOMS } from "~/realtime/protocol";
import { pendingRequestSummaries } from "~/server/db/requests.server";

import { SessionBoundRoom } from "./session-bound-room";

export class DoctorsLobby extends SessionBoundRoom {
  protected readonly roomClass = ROOMS.lobby.className;

  protected override async welcome(connection: Connection): Promise<void> {
    const requests = await pendingRequestSummaries(this.db);
    connection.send(JSON.stringify({ type: "queue", requests } satisfies LobbyEvent));
  }

  /** Doctors only listen here: the protocol has no message for them to send (anything is dropped). */
  override onMessage(_connection: Connection, message: WSMessage): void {
    parseMessage(LobbyInbound, message);
  }

  async requestAdded(request: RequestSummary): Promise<void> {
    await this.sendToLive(JSON.stringify({ type: "request_added", request } satisfies LobbyEvent));
  }

  async requestRemoved(id: string): Promise<void> {
    await this.sendToLive(JSON.stringify({ type: "request_removed", id } satisfies LobbyEvent));
  }
}
