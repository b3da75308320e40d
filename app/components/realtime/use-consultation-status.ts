import { useRevalidator } from "@remix-run/react";
import { useState } from "react";

import type { ConsultationStatus } from "~/domain/consultation-status";
import { ConsultationRoomEvent } from "~/domain/room-events";

import { useRoomSocket } from "./use-room-socket";

/**
 * The consultation's status as its room reports it, live. The room sends the current status on every
 * (re)connection, so a page that lost its connection catches up by itself.
 */
export function useConsultationStatus(consultationId: string, initial: ConsultationStatus, { enabled = true } = {}) {
  // What the room last said, about which consultation and on top of which server status: another
  // consultation, or fresh data from the server, starts again from what the server said.
  const [heard, setHeard] = useState<{
    consultationId: string;
    initial: ConsultationStatus;
    status: ConsultationStatus;
    reason?: string;
  } | null>(null);
  const current =
    heard && heard.consultationId === consultationId && heard.initial === initial ? heard : { status: initial, reason: undefined };
  const revalidator = useRevalidator();
  useRoomSocket({
    party: "consultation-room",
    room: consultationId,
    enabled,
    onMessage(data) {
      const parsed = ConsultationRoomEvent.safeParse(data);
      if (!parsed.success || parsed.data.type !== "status") return;
      setHeard({ consultationId, initial, status: parsed.data.status, reason: parsed.data.reason });
    },
    // A doctor whose accepted request went back to the queue: the page reloads what it shows.
    onNoLongerParticipant: () => revalidator.revalidate(),
  });
  return { status: current.status, reason: current.reason };
}
