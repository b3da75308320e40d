// DoctorsLobby: the one room ("main") that signed-in active doctors join to see pending requests live.
// Who may connect is decided before the socket is accepted (app/server/room-access.server.ts); what the
// lobby pushes (new and withdrawn requests, catch-up on reconnect) arrives with the requests issue.
import { Server, type Connection } from "partyserver";

export const LOBBY_ROOM_NAME = "main";

export class DoctorsLobby extends Server<Env> {
  static override options = { hibernate: true };

  /** Doctors only listen here; anything they send is ignored. */
  override onMessage(_connection: Connection): void {}
}
