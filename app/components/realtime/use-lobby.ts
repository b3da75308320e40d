import { useCallback, useState } from "react";

import { byQueueOrder, LobbyEvent, type RequestSummary } from "~/domain/room-events";

import { useRoomSocket } from "./use-room-socket";

/**
 * The waiting requests, live from the doctors' lobby. `onArrival` hears of each request that arrives
 * after the first snapshot (for its toast).
 */
export function useLobby(onArrival?: (request: RequestSummary) => void) {
  const [requests, setRequests] = useState<RequestSummary[]>([]);
  const [connected, setConnected] = useState(false);
  const handle = useCallback(
    (event: LobbyEvent) => {
      if (event.type === "queue") setRequests([...event.requests].sort(byQueueOrder));
      else if (event.type === "request_removed") setRequests((all) => all.filter((request) => request.id !== event.id));
      else {
        setRequests((all) => [...all.filter((request) => request.id !== event.request.id), event.request].sort(byQueueOrder));
        onArrival?.(event.request);
      }
    },
    [onArrival],
  );
  useRoomSocket({
    party: "doctors-lobby",
    room: "main",
    onOpen: () => setConnected(true),
    onClose: () => setConnected(false),
    onMessage(data) {
      const parsed = LobbyEvent.safeParse(data);
      if (parsed.success) handle(parsed.data);
    },
  });
  return { requests, connected, remove: (id: string) => setRequests((all) => all.filter((request) => request.id !== id)) };
}
