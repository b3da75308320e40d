import ReconnectingWebSocket from "partysocket/ws";
import { useEffect, useRef } from "react";

import { ROOM_CLOSE_CODES, type ROOMS } from "~/realtime/protocol";

import { markSessionEnded } from "./session-ended";

interface RoomSocketOptions {
  party: (typeof ROOMS)[keyof typeof ROOMS]["party"];
  room: string;
  enabled?: boolean;
  /** Each message as it came; callers read it with the protocol's `parseMessage`. */
  onMessage: (data: unknown) => void;
  /** The socket opened (again); pages that also speak in the room keep it. */
  onOpen?: (socket: ReconnectingWebSocket) => void;
  onClose?: () => void;
  /** The room closed the socket for good because the person no longer takes part in it. */
  onNoLongerParticipant?: () => void;
}

/** Close codes after which reconnecting would only be refused again. */
const FINAL_CLOSE_CODES: number[] = [ROOM_CLOSE_CODES.sessionEnded, ROOM_CLOSE_CODES.noLongerParticipant];

/**
 * A room socket (partysocket's ReconnectingWebSocket to /parties/<party>/<room>: the room's guard gives
 * each socket its connection id, so PartySocket's own addressing is not needed) that reconnects by
 * itself after a network loss and catches up, except when the room closes it for good: the session has
 * ended (the page says so), or the person no longer takes part. One socket per party and room while
 * enabled; the latest handlers always answer.
 */
export function useRoomSocket({ party, room, enabled = true, ...handlers }: RoomSocketOptions) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    // The page's own scheme: a secure page opens a secure socket, whatever its host is called.
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new ReconnectingWebSocket(
      `${scheme}://${window.location.host}/parties/${party}/${encodeURIComponent(room)}`,
      undefined,
      {
        shouldReconnectOnClose: (event) => !FINAL_CLOSE_CODES.includes(event.code),
      },
    );
    socket.addEventListener("open", () => latest.current.onOpen?.(socket));
    socket.addEventListener("message", (message: MessageEvent) => latest.current.onMessage(message.data));
    socket.addEventListener("close", (event: CloseEvent) => {
      if (event.code === ROOM_CLOSE_CODES.sessionEnded) markSessionEnded();
      if (event.code === ROOM_CLOSE_CODES.noLongerParticipant) latest.current.onNoLongerParticipant?.();
      latest.current.onClose?.();
    });
    return () => socket.close();
  }, [party, room, enabled]);
}
