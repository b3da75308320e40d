import { useEffect, useState } from "react";
import { LobbyEvent } from "~/domain/room-events";
import { useRoomSocket } from "./use-room-socket";

/**
 * For a doctor reading a waiting request: false as soon as the lobby says it left the queue (another
 * doctor took it, or the patient withdrew), so the page stops offering Accept.
 */
export function useStillWaiting(consultationId: string, waiting: boolean) {
  const [stillWaiting, setStillWaiting] = useState(waiting);
  useEffect(() => setStillWaiting(waiting), [consultationId, waiting]);
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
