// Room sockets for tests: opened through the Worker exactly as a browser opens them, collecting every
// event they receive, with a way to wait for one and to see when the room closes them.
import { SELF } from "cloudflare:test";

import { ConsultationRoomEvent, type ConsultationRoomInbound, LobbyEvent } from "~/realtime/protocol";

import { ORIGIN, signedIn } from "./fixtures";

export interface CollectingSocket<Event> {
  socket: WebSocket;
  events: Event[];
  /** Resolves once `found` holds for the events received so far. */
  until(found: (events: Event[]) => boolean): Promise<void>;
  /** Resolves with the close code once the room closes the socket. */
  closed: Promise<number>;
  /** The close code if the socket has closed by now, else undefined. */
  closeCode(): number | undefined;
  close(): void;
}

async function collect<Event>(path: string, cookie: string, parse: (data: unknown) => Event): Promise<CollectingSocket<Event>> {
  const response = await SELF.fetch(`${ORIGIN}${path}`, { headers: { Upgrade: "websocket", Cookie: cookie } });
  const socket = response.webSocket;
  if (!socket) throw new Error(`${path} answered ${response.status} instead of a socket`);
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  socket.addEventListener("message", (message) => {
    events.push(parse(JSON.parse(String(message.data))));
    wake();
  });
  let closeCode: number | undefined;
  const closed = new Promise<number>((resolve) =>
    socket.addEventListener("close", (event) => {
      closeCode = event.code;
      resolve(event.code);
    }),
  );
  socket.accept();
  return {
    socket,
    events,
    async until(found) {
      while (!found(events)) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    closed,
    closeCode: () => closeCode,
    close: () => socket.close(1000, "done"),
  };
}

/** A lobby socket of `cookie`'s doctor, or of a new active doctor (`query` as partysocket adds it). */
export async function openLobbySocket(cookie?: string, query = "", path = "/parties/doctors-lobby/main") {
  const doctorCookie = cookie ?? (await signedIn("doctor")).cookie;
  return collect(`${path}${query}`, doctorCookie, (data) => LobbyEvent.parse(data));
}

/** A consultation room socket of `cookie`'s user. */
export function openConsultationSocket(consultationId: string, cookie: string) {
  return collect(`/parties/consultation-room/${consultationId}`, cookie, (data) => data as Record<string, unknown>);
}

/** A consultation room socket that speaks the protocol: its events typed, and a way to send (raw text too). */
export async function openChatSocket(consultationId: string, cookie: string) {
  const opened = await collect(`/parties/consultation-room/${consultationId}`, cookie, (data) => ConsultationRoomEvent.parse(data));
  return {
    ...opened,
    send: (event: ConsultationRoomInbound | string) => opened.socket.send(typeof event === "string" ? event : JSON.stringify(event)),
  };
}
