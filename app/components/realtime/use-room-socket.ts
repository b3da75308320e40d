import { PartySocket } from "partysocket";
import { useEffect, useRef } from "react";

import { ROOM_CLOSE_CODES, type ROOMS } from "~/realtime/protocol";

import { markSessionEnded } from "./session-ended";

interface RoomSocketOptions {
  party: (typeof ROOMS)[keyof typeof ROOMS]["party"];
  room: string;
  enabled?: boolean;
  /** Each message as it came; callers read it with the protocol's `parseMessage`. */
  onMessage: (data: unknown) => void;
  onOpen?: () => void;
  onClose?: () => void;
  /** The room closed the socket for good because the person no longer takes part in it. */
  onNoLongerParticipant?: () => void;
}

/** Close codes after which reconnecting would only be refused again. */
const FINAL_CLOSE_CODES: number[] = [ROOM_CLOSE_CODES.sessionEnded, ROOM_CLOSE_CODES.noLongerParticipant];

/**
 * A room socket (partysocket's PartySocket) that reconnects by itself after a network loss and catches
 * up, except when the room closes it for good: the session has ended (the page says so), or the person
 * no longer takes part. One socket per party and room while enabled; the latest handlers always answer.
 * Returns the socket of the moment (null while there is none), for pages that also speak in the room.
 */
export function useRoomSocket({ party, room, enabled = true, ...handlers }: RoomSocketOptions) {
  const latest = useRef(handlers);
  const current = useRef<PartySocket | null>(null);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const socket = new PartySocket({
      host: window.location.host,
      // The page's own scheme: a secure page opens a secure socket, whatever its host is called.
      protocol: window.location.protocol === "https:" ? "wss" : "ws",
      party,
      room,
      shouldReconnectOnClose: (event: CloseEvent) => !FINAL_CLOSE_CODES.includes(event.code),
    });
    socket.addEventListener("open", () => latest.current.onOpen?.());
    socket.addEventListener("message", (message: MessageEvent) => latest.current.onMessage(message.data));
    socket.addEventListener("close", (event: CloseEvent) => {
      if (event.code === ROOM_CLOSE_CODES.sessionEnded) markSessionEnded();
      if (event.code === ROOM_CLOSE_CODES.noLongerParticipant) latest.current.onNoLongerParticipant?.();
      latest.current.onClose?.();
    });
    current.current = socket;
    return () => {
      current.current = null;
      socket.close();
    };
  }, [party, room, enabled]);
  return current;
}
