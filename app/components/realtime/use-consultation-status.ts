import { useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { ConsultationStatus } from "~/domain/consultation-status";
import { ConsultationRoomEvent } from "~/domain/room-events";
import { useRoomSocket } from "./use-room-socket";

/**
 * The consultation's status as its room reports it, live. The room sends the current status on every
 * (re)connection, so a page that lost its connection catches up by itself.
 */
export function useConsultationStatus(consultationId: string, initial: ConsultationStatus, { enabled = true } = {}) {
  const [status, setStatus] = useState(initial);
  const [reason, setReason] = useState<string | undefined>();
  const revalidator = useRevalidator();
  // Another consultation (or fresh data from the server) starts from what the server said.
  useEffect(() => {
    setStatus(initial);
    setReason(undefined);
  }, [consultationId, initial]);
  useRoomSocket({
    party: "consultation-room",
    room: consultationId,
    enabled,
    onMessage(data) {
      const parsed = ConsultationRoomEvent.safeParse(data);
      if (!parsed.success || parsed.data.type !== "status") return;
      setStatus(parsed.data.status);
      setReason(parsed.data.reason);
    },
    // A doctor whose accepted request went back to the queue: the page reloads what it shows.
    onNoLongerParticipant: () => revalidator.revalidate(),
  });
  return { status, reason };
}
