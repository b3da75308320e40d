import usePartySocket from "partysocket/react";
import { ROOM_CLOSE_CODES } from "~/domain/room-events";
import { markSessionEnded } from "./session-ended";

interface RoomSocketOptions {
  party: "doctors-lobby" | "consultation-room";
  room: string;
  enabled?: boolean;
  /** Each message, parsed as JSON (null if it is not); callers check it against their schema. */
  onMessage: (data: unknown) => void;
  onOpen?: () => void;
  onClose?: () => void;
}

export function safeJson(data: unknown): unknown {
  if (typeof data !== "string") return null;
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/**
 * A room socket that reconnects by itself after a network loss and catches up, except when the room
 * closes it because the session has ended: then it stays closed and the page says so.
 */
export function useRoomSocket({ onMessage, onClose, ...options }: RoomSocketOptions) {
  return usePartySocket({
    ...options,
    shouldReconnectOnClose: (event: CloseEvent) => event.code !== ROOM_CLOSE_CODES.sessionEnded,
    onMessage: (message: MessageEvent) => onMessage(safeJson(message.data)),
    onClose(event: CloseEvent) {
      if (event.code === ROOM_CLOSE_CODES.sessionEnded) markSessionEnded();
      onClose?.();
    },
  });
}
