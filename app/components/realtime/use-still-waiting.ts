import { useState } from "react";

import { LobbyEvent } from "~/domain/room-events";

import { useRoomSocket } from "./use-room-socket";

/**
 * For a doctor reading a waiting request: false as soon as the lobby says it left the queue (another
 * doctor took it, or the patient withdrew), so the page stops offering Accept.
 */
export function useStillWaiting(consultationId: string, waiting: boolean) {
  // What the lobby last said about this request, on top of the server's `waiting`.
  const [heard, setHeard] = useState<{ consultationId: string; waiting: boolean; stillWaiting: boolean } | null>(null);
  const stillWaiting = heard && heard.consultationId === consultationId && heard.waiting === waiting ? heard.stillWaiting : waiting;
  const setStillWaiting = (value: boolean) => setHeard({ consultationId, waiting, stillWaiting: value });
  useRoomSocket({
    party: "doctors-lobby",
    room: "main",
    enabled: waiting,
    onMessage(data) {
      const parsed = LobbyEvent.safeParse(data);
      if (!parsed.success) return;
      const event = parsed.data;
      if (event.type === "queue") setStillWaiting(event.requests.some((request) => request.id === consultationId));
      else if (event.type === "request_removed" && event.id === consultationId) setStillWaiting(false);
      else if (event.type === "request_added" && event.request.id === consultationId) setStillWaiting(true);
    },
  });
  return stillWaiting;
}
