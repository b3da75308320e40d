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
  /** The room closed the socket for good because the person no longer takes part in it. */
  onNoLongerParticipant?: () => void;
}

/** Close codes after which reconnecting would only be refused again. */
const FINAL_CLOSE_CODES: number[] = [ROOM_CLOSE_CODES.sessionEnded, ROOM_CLOSE_CODES.noLongerParticipant];

function safeJson(data: unknown): unknown {
  if (typeof data !== "string") return null;
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/**
 * A room socket that reconnects by itself after a network loss and catches up, except when the room
 * closes it for good: the session has ended (the page says so), or the person no longer takes part.
 */
export function useRoomSocket({ onMessage, onClose, onNoLongerParticipant, ...options }: RoomSocketOptions) {
  return usePartySocket({
    ...options,
    shouldReconnectOnClose: (event: CloseEvent) => !FINAL_CLOSE_CODES.includes(event.code),
    onMessage: (message: MessageEvent) => onMessage(safeJson(message.data)),
    onClose(event: CloseEvent) {
      if (event.code === ROOM_CLOSE_CODES.sessionEnded) markSessionEnded();
      if (event.code === ROOM_CLOSE_CODES.noLongerParticipant) onNoLongerParticipant?.();
      onClose?.();
    },
  });
}
