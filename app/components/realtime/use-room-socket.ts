import usePartySocket from "partysocket/react";

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
 * A room socket that reconnects by itself after a network loss and catches up, except when the room
 * closes it for good: the session has ended (the page says so), or the person no longer takes part.
 */
export function useRoomSocket({ onMessage, onClose, onNoLongerParticipant, ...options }: RoomSocketOptions) {
  return usePartySocket({
    ...options,
    shouldReconnectOnClose: (event: CloseEvent) => !FINAL_CLOSE_CODES.includes(event.code),
    onMessage: (message: MessageEvent) => onMessage(message.data),
    onClose(event: CloseEvent) {
      if (event.code === ROOM_CLOSE_CODES.sessionEnded) markSessionEnded();
      if (event.code === ROOM_CLOSE_CODES.noLongerParticipant) onNoLongerParticipant?.();
      onClose?.();
    },
  });
}
