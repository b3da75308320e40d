import { useRevalidator } from "@remix-run/react";
import { useState } from "react";

import type { ConsultationStatus, DeclineReason } from "~/domain/consultation-status";
import { ConsultationRoomEvent, parseMessage, ROOMS, type STATUS_REASONS } from "~/realtime/protocol";

import { useRoomSocket } from "./use-room-socket";

interface Heard {
  status: ConsultationStatus;
  reason?: (typeof STATUS_REASONS)[number];
  decline?: { reason: DeclineReason; note: string | null };
}

/**
 * The consultation's status as its room reports it, live (and why it moved, when the page should say
 * so). The room sends the current status on every (re)connection, so a page that lost its connection
 * catches up by itself.
 */
export function useConsultationStatus(consultationId: string, initial: ConsultationStatus, { enabled = true } = {}): Heard {
  // What the room last said, about which consultation and on top of which server status: another
  // consultation, or fresh data from the server, starts again from what the server said.
  const [heard, setHeard] = useState<(Heard & { consultationId: string; initial: ConsultationStatus }) | null>(null);
  const revalidator = useRevalidator();
  useRoomSocket({
    party: ROOMS.consultation.party,
    room: consultationId,
    enabled,
    onMessage(data) {
      const event = parseMessage(ConsultationRoomEvent, data);
      if (event?.type !== "status") return;
      setHeard({ consultationId, initial, status: event.status, reason: event.reason, decline: event.decline });
    },
    // A doctor whose accepted request went back to the queue: the page reloads what it shows.
    onNoLongerParticipant: () => revalidator.revalidate(),
  });
  if (!heard || heard.consultationId !== consultationId || heard.initial !== initial) return { status: initial };
  return { status: heard.status, reason: heard.reason, decline: heard.decline };
}
