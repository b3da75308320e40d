import { useEffect, useState } from "react";

import {
  byQueueOrder,
  type LobbyEvent,
  LobbyEvent as LobbyEventSchema,
  parseMessage,
  type RequestSummary,
  ROOMS,
} from "~/realtime/protocol";

import { publishLobbyQueue } from "./lobby-queue";
import { useRoomSocket } from "./use-room-socket";

/**
 * The waiting requests, live from the doctors' lobby: the page's one lobby socket (the header's bell
 * holds it; others read the queue through lobby-queue). `onArrival` hears of each request that arrives
 * after the first snapshot (for its toast).
 */
export function useLobby(onArrival?: (request: RequestSummary) => void) {
  const [requests, setRequests] = useState<RequestSummary[] | null>(null);
  const [connected, setConnected] = useState(false);
  useEffect(() => publishLobbyQueue(requests), [requests]);
  const handle = (event: LobbyEvent) => {
    if (event.type === "queue") setRequests([...event.requests].sort(byQueueOrder));
    else if (event.type === "request_removed") setRequests((all) => (all ?? []).filter((request) => request.id !== event.id));
    else {
      setRequests((all) => [...(all ?? []).filter((request) => request.id !== event.request.id), event.request].sort(byQueueOrder));
      onArrival?.(event.request);
    }
  };
  useRoomSocket({
    party: ROOMS.lobby.party,
    room: ROOMS.lobby.name,
    onOpen: () => setConnected(true),
    onClose: () => setConnected(false),
    onMessage(data) {
      const event = parseMessage(LobbyEventSchema, data);
      if (event) handle(event);
    },
  });
  return { requests: requests ?? [], connected };
}
