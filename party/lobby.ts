// DoctorsLobby: the one room ("main") that signed-in active doctors join to see waiting requests live.
// Who may connect is decided before the socket is accepted (app/server/room-access.server.ts). Each
// connection first receives the whole queue from D1, so a reconnecting page catches up; after that,
// requests arriving and leaving are pushed as they happen.
import { Server, type Connection } from "partyserver";
import type { LobbyEvent, RequestSummary } from "~/domain/room-events";
import { createDatabase } from "~/server/db/client.server";
import { pendingRequestSummaries } from "~/server/db/requests.server";

export class DoctorsLobby extends Server<Env> {
  static override options = { hibernate: true };

  override async onConnect(connection: Connection): Promise<void> {
    const requests = await pendingRequestSummaries(createDatabase(this.env.DB));
    connection.send(JSON.stringify({ type: "queue", requests } satisfies LobbyEvent));
  }

  /** Doctors only listen here; anything they send is ignored. */
  override onMessage(_connection: Connection): void {}

  async requestAdded(request: RequestSummary): Promise<void> {
    this.broadcast(JSON.stringify({ type: "request_added", request } satisfies LobbyEvent));
  }

  async requestRemoved(id: string): Promise<void> {
    this.broadcast(JSON.stringify({ type: "request_removed", id } satisfies LobbyEvent));
  }
}
