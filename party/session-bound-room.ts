// A room whose sockets live no longer than the sessions that opened them (docs/decisions/0012):
// - each connection carries its session (tagged, and registered in D1 so that ending a session can
//   find its rooms); `endSessions` closes a session's sockets at once;
// - before anything is sent, the sessions of the connections are checked in D1: a connection whose
//   session has ended (or whose doctor was made inactive), or whose person no longer takes part in
//   the room, is closed instead of being sent to; a new connection is checked the same way first.
//   The check reads one count when no session could have ended since the last (docs/decisions/0040);
//   a consultation room's chat may pass in what D1 said a moment ago (docs/decisions/0042);
// - the room wakes at the earliest moment one of its sessions could lapse and checks again.
// The room's one alarm serves several named wake-ups (this sweep; the payment deadline in a
// consultation room), each kept in storage.
import { type Connection, type ConnectionContext, Server } from "partyserver";

import { ROOM_CLOSE_CODES } from "~/realtime/protocol";
import { type RoomIdentity, roomIdentityOf } from "~/realtime/room-contract";
import { createDatabase, type Database } from "~/server/db/client.server";
import {
  liveSessions,
  registerConnection,
  type RoomClass,
  sessionChangeCount,
  unregisterConnections,
} from "~/server/db/room-connections.server";

const WAKE_UP_PREFIX = "wake-up:";

/** Who may listen in a room, and D1's count of session changes (room-connections.server) read with it. */
export interface Listeners {
  mayListen: (userId: string) => boolean;
  sessionChanges: number | null;
}
const sessionTag = (sessionId: string) => `session:${sessionId}`;

export abstract class SessionBoundRoom extends Server<Env> {
  // Not hibernating: a hibernated socket that the room closes stays half-open in workerd (the client
  // never sees the TCP close; cloudflare/workerd#2569), so a signed-out client would linger (ADR 0013).
  static override options = { hibernate: false };
  protected abstract readonly roomClass: RoomClass;

  /** What a connection is sent first, right after its session was checked at the door. */
  protected abstract welcome(connection: Connection<RoomIdentity>): Promise<void>;

  /** Called on every alarm, after the session sweep; rooms with other wake-ups handle them here. */
  protected async onWakeUp(): Promise<void> {}

  /**
   * Who may still listen here (checked with the sessions before every send; everyone by default),
   * with D1's count of session changes. A room that reads something of its own for this reads the
   * count in the same query.
   */
  protected async listeners(): Promise<Listeners> {
    return { mayListen: () => true, sessionChanges: await sessionChangeCount(this.db) };
  }

  /** The count of session changes (room-connections.server) at which each connection's session was last found alive. */
  private readonly checkedAtChange = new Map<string, number>();

  // One drizzle client for the room's life: building one (its schema's relations) costs more CPU than a query.
  private database: Database | undefined;
  protected get db(): Database {
    return (this.database ??= createDatabase(this.env.DB));
  }

  override getConnectionTags(_connection: Connection, context: ConnectionContext): string[] {
    const identity = roomIdentityOf(context.request);
    return identity ? [sessionTag(identity.sessionId)] : [];
  }

  override async onConnect(connection: Connection<RoomIdentity>, context: ConnectionContext): Promise<void> {
    const identity = roomIdentityOf(context.request);
    // Only the Worker's room guard lets sockets in, and it always says whose they are.
    if (!identity) return connection.close(ROOM_CLOSE_CODES.sessionEnded, "No session");
    connection.setState(identity);
    await registerConnection(
      this.db,
      { roomClass: this.roomClass, roomName: this.name, connectionId: connection.id, sessionId: identity.sessionId },
      new Date(),
    );
    // Checked again once registered: a sign-out between the door and here found no row to close.
    if (!(await this.liveConnections([connection])).length) return;
    await this.planSessionSweep();
    await this.welcome(connection);
  }

  /** A plain request the guard let through: the asker may connect (pages ask after a failed reconnect). */
  override onRequest(): Response {
    return new Response(null, { status: 204 });
  }

  override async onClose(connection: Connection): Promise<void> {
    this.checkedAtChange.delete(connection.id);
    await unregisterConnections(this.db, this.roomClass, this.name, [connection.id]);
  }

  override async onError(connection: Connection): Promise<void> {
    this.checkedAtChange.delete(connection.id);
    await unregisterConnections(this.db, this.roomClass, this.name, [connection.id]);
  }

  /** Sends `message` to every connection whose session is still alive; the others are closed instead. */
  protected async sendToLive(message: string): Promise<void> {
    for (const connection of await this.liveConnections()) connection.send(message);
  }

  /** Sends each live connection the message meant for its person (null: nothing for them); the others are closed instead. */
  protected async sendToEachLive(messageFor: (userId: string) => string | null): Promise<void> {
    for (const { connection, identity } of await this.live()) {
      const message = messageFor(identity.userId);
      if (message !== null) connection.send(message);
    }
  }

  /** Called when sessions have ended (sign-out, password change, deactivation…): their sockets close now. */
  async endSessions(sessionIds: string[]): Promise<void> {
    await this.close(
      sessionIds.flatMap((sessionId) => [...this.getConnections<RoomIdentity>(sessionTag(sessionId))]),
      ROOM_CLOSE_CODES.sessionEnded,
    );
    await this.planSessionSweep();
  }

  override async onAlarm(): Promise<void> {
    // Alarms are at-least-once and may come early: each task checks its own condition again.
    await this.planSessionSweep(await this.liveConnections());
    await this.onWakeUp();
  }

  /** Sets (or with null, clears) the named wake-up; the room's alarm rings at the earliest one. */
  protected async wakeUpAt(name: string, at: Date | null): Promise<void> {
    if (at) await this.ctx.storage.put(`${WAKE_UP_PREFIX}${name}`, at.getTime());
    else await this.ctx.storage.delete(`${WAKE_UP_PREFIX}${name}`);
    const wakeUps = [...(await this.ctx.storage.list<number>({ prefix: WAKE_UP_PREFIX })).values()];
    if (wakeUps.length) await this.ctx.storage.setAlarm(Math.min(...wakeUps));
    else await this.ctx.storage.deleteAlarm();
  }

  protected async wakeUpTime(name: string): Promise<Date | null> {
    const at = await this.ctx.storage.get<number>(`${WAKE_UP_PREFIX}${name}`);
    return at === undefined ? null : new Date(at);
  }

  /**
   * Of `connections` (all open ones by default), those whose session is alive and whose person may
   * still listen; the others are closed, saying why. A room that has just read its listeners (with
   * what it needed anyway) passes them in. Sessions are read from D1 only for connections not already
   * known alive: checked at the current count of session changes (a sign-out, a deactivation,
   * anything that ends a session early moves it) and not yet at their end.
   */
  protected async liveConnections(
    connections?: Array<Connection<RoomIdentity>>,
    listening?: Promise<Listeners>,
  ): Promise<Array<Connection<RoomIdentity>>> {
    return (await this.live(connections, listening)).map(({ connection }) => connection);
  }

  /** `liveConnections`, each with whose it is (a connection's state is decoded anew on every read: read once here). */
  private async live(
    connections = [...this.getConnections<RoomIdentity>()],
    listening: Promise<Listeners> = this.listeners(),
  ): Promise<Array<{ connection: Connection<RoomIdentity>; identity: RoomIdentity }>> {
    const { mayListen, sessionChanges: changes } = await listening;
    const now = Date.now();
    const open: Array<{ connection: Connection<RoomIdentity>; identity: RoomIdentity }> = [];
    const sessionEnded: Array<Connection<RoomIdentity>> = [];
    for (const connection of connections) {
      if (connection.readyState !== WebSocket.OPEN) continue;
      const identity = connection.state;
      if (identity) open.push({ connection, identity });
      else sessionEnded.push(connection);
    }
    const knownAlive = ({ connection, identity }: (typeof open)[number]) =>
      changes !== null && this.checkedAtChange.get(connection.id) === changes && identity.endsAt > now;
    const unsure = open.filter((each) => !knownAlive(each));
    const live = unsure.length
      ? await liveSessions(this.db, [...new Set(unsure.map(({ identity }) => identity.sessionId))], new Date(now))
      : new Map<string, Date>();
    const ended = new Set<Connection<RoomIdentity>>();
    for (const { connection, identity } of unsure) {
      const endsAt = live.get(identity.sessionId)?.getTime();
      if (endsAt === undefined) {
        ended.add(connection);
        continue;
      }
      if (identity.endsAt !== endsAt) connection.setState({ ...identity, endsAt });
      // A socket closed while D1 answered has left the map (onClose): it must not come back.
      if (changes !== null && connection.readyState === WebSocket.OPEN) this.checkedAtChange.set(connection.id, changes);
    }
    const alive: typeof open = [];
    const notListening: Array<Connection<RoomIdentity>> = [];
    for (const each of open) {
      if (ended.has(each.connection)) sessionEnded.push(each.connection);
      else if (!mayListen(each.identity.userId)) notListening.push(each.connection);
      else alive.push(each);
    }
    await this.close(sessionEnded, ROOM_CLOSE_CODES.sessionEnded);
    await this.close(notListening, ROOM_CLOSE_CODES.noLongerParticipant);
    return alive;
  }

  private async close(connections: Array<Connection<RoomIdentity>>, code: number): Promise<void> {
    if (connections.length === 0) return;
    const reason = code === ROOM_CLOSE_CODES.sessionEnded ? "Session ended" : "No longer a participant";
    for (const connection of connections) {
      connection.close(code, reason);
      this.checkedAtChange.delete(connection.id);
    }
    await unregisterConnections(
      this.db,
      this.roomClass,
      this.name,
      connections.map((connection) => connection.id),
    );
  }

  /** Wakes the room when the first of its connections' sessions could lapse. */
  private async planSessionSweep(connections = [...this.getConnections<RoomIdentity>()]): Promise<void> {
    const ends = connections.flatMap((connection) =>
      connection.state && connection.readyState === WebSocket.OPEN ? [connection.state.endsAt] : [],
    );
    await this.wakeUpAt("sessions", ends.length ? new Date(Math.min(...ends)) : null);
  }
}
